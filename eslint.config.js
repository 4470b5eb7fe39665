// Flat ESLint config: strict TypeScript rules plus Nx module boundaries.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';

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
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:ports', 'type:contracts', 'type:util', 'type:adapters'] },
            { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['type:ports', 'type:contracts', 'type:util', 'type:adapters', 'type:service'] },
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
);
