// Flat ESLint config: strict TypeScript rules plus Nx module boundaries.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';

/** What a service's source never imports: adapters (the launcher picks them) and the test kit. */
const SERVICE_SOURCE_IMPORTS = [
  { name: '@skald/adapters', message: 'Services depend on ports; the launcher chooses adapters (gateway/src/process-deps.ts).' },
  { name: '@skald/testing', message: 'The test kit is for tests only.' },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-output/**', '.ci/node/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            { sourceTag: 'type:ports', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:ports'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:ports', 'type:contracts', 'type:util'] },
            { sourceTag: 'type:adapters', onlyDependOnLibsWithTags: ['type:ports', 'type:contracts', 'type:util'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:ports', 'type:contracts', 'type:util', 'type:adapters'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:ports', 'type:contracts', 'type:util', 'type:adapters', 'type:testing'] },
            { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['type:ports', 'type:contracts', 'type:util', 'type:adapters', 'type:service', 'type:testing'] },
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
            // The browser walkthrough (web/e2e) starts the real server: the test kit's start-up line parser besides the contracts.
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:testing'] },
          ],
        },
      ],
    },
  },
  {
    // A service's source depends on ports, never on adapters (the launcher picks them) or the test kit;
    // its tests may use both. The tag rule above cannot tell source from test files, this rule does.
    files: ['services/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: SERVICE_SOURCE_IMPORTS,
        },
      ],
    },
  },
  {
    // events/ holds inbound consumers; the rules and their publishers live in domain/, which never reaches
    // up into events/ (the paths above again: a later block replaces the rule's options).
    files: ['services/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: SERVICE_SOURCE_IMPORTS,
          patterns: [{ regex: '^(\\.\\./)+events/', message: 'domain/ never imports events/ (consumers only); move what the domain needs into domain/.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
);
