/**
 * The docs name only what exists: every repository path (docs/…, libs/…, services/…, gateway/…, web/…,
 * scripts/…, deploy/…, test/…, integrations/…, .ci/…) in docs/*.md, README.md and integrations/* /README.md
 * is a file or folder of the repository (a `*` or a `<placeholder>` segment matches at least one), every
 * `npm run <script>` is a script of the root package (or of the workspace `-w` names), and every
 * `npm run bench -- <name>` selects at least one benchmark file. And a section cited by name (docs/X.md,
 * "Section"), in a page or in a source comment, is a heading, a bold lead or a list item's lead of that page.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryFiles, sourceFiles } from './support/repo-files.ts';

const root = join(import.meta.dirname, '..');
const files = repositoryFiles(root);
const fileSet = new Set(files);
const folders = new Set(files.flatMap((file) => file.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

/** Built or written at run time (the secrets by deploy/gen-secrets.sh), so absent from a fresh checkout. */
const GENERATED = ['web/dist', 'test-output', 'data', 'deploy/secrets'];

const PATH = /(?<![\w./@-])((?:docs|libs|services|gateway|web|scripts|deploy|test|integrations|\.ci)\/[\w.\-/*<>]*)/g;

function docFiles(): string[] {
  return files.filter((file) => /^docs\/[^/]+\.md$/.test(file) || file === 'README.md' || /^integrations\/[^/]+\/README\.md$/.test(file));
}

function globRegex(path: string): RegExp {
  const pattern = path
    .split('/')
    .map((segment) => (segment === '**' ? '.*' : segment.replace(/<[^>]*>/g, '*').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')))
    .join('/');
  return new RegExp(`^${pattern}(/.*)?$`);
}

function pathExists(raw: string): boolean {
  const path = raw.replace(/[.,:;]+$/, '').replace(/\/+$/, '');
  if (GENERATED.some((generated) => path === generated || path.startsWith(`${generated}/`))) return true;
  if (/[*<]/.test(path)) {
    const regex = globRegex(path);
    return files.some((file) => regex.test(file));
  }
  return fileSet.has(path) || folders.has(path);
}

function scriptsOf(packageJson: string): Record<string, string> {
  return (JSON.parse(readFileSync(join(root, packageJson), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
}

function workspaceScripts(name: string): Record<string, string> | undefined {
  for (const packageJson of files.filter((file) => /^(libs|services)\/[^/]+\/package\.json$|^(gateway|web)\/package\.json$/.test(file))) {
    const parsed = JSON.parse(readFileSync(join(root, packageJson), 'utf8')) as { name?: string; scripts?: Record<string, string> };
    if (parsed.name === name) return parsed.scripts ?? {};
  }
  return undefined;
}

/** The benchmark files `npm run bench` runs (scripts/bench.mjs picks them by a part of their name). */
const benchFiles = files.filter((file) => file.startsWith('scripts/bench/') && file.endsWith('.bench.ts')).map((file) => file.split('/').pop() ?? file);

/** `docs/PAGE.md, "Section"` (or without the comma), the quote possibly broken over a comment's lines. */
const SECTION_CITE = /(docs\/[A-Z_]+\.md|README\.md),?\s*(?:\*\s*|\/\/\s*)?"([^"\n]+(?:\n\s*(?:\*|\/\/)?\s*[^"\n]+)?)"/g;

const flatten = (text: string): string => text.replace(/\s*(?:\*|\/\/)\s*/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

/** What a page's sections are called: its headings, bold leads and the leads of its list items. */
function sectionNames(page: string): string[] {
  if (!fileSet.has(page)) return [];
  const text = readFileSync(join(root, page), 'utf8');
  const headings = [...text.matchAll(/^#+\s+(.*)$/gm)].map((m) => m[1] ?? '');
  const bold = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1] ?? '');
  const items = [...text.matchAll(/^\s*- ([^:(\n]+)/gm)].map((m) => m[1] ?? '');
  return [...headings, ...bold, ...items].map(flatten);
}

describe('docs name only what exists', () => {
  const docs = docFiles();

  it('finds the pages it checks', () => {
    expect(docs).toContain('docs/ARCHITECTURE.md');
    expect(docs).toContain('README.md');
    expect(benchFiles.length).toBeGreaterThan(5);
  });

  it('every repository path a page names exists', () => {
    const missing: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(join(root, doc), 'utf8');
      for (const match of text.matchAll(PATH)) {
        const path = match[1] ?? '';
        // A page inside a folder may name its own files relative to it (integrations/fivem/README.md: test/…).
        const folder = doc.includes('/') && !doc.startsWith('docs/') ? doc.slice(0, doc.lastIndexOf('/') + 1) : '';
        if (!pathExists(path) && !(folder !== '' && pathExists(folder + path))) missing.push(`${doc}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every `npm run` script and benchmark a page names exists', () => {
    const rootScripts = scriptsOf('package.json');
    const missing: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(join(root, doc), 'utf8');
      for (const match of text.matchAll(/npm run ([\w:.-]+)(?: -w (@?[\w./-]+))?/g)) {
        const [, script = '', workspace] = match;
        const scripts = workspace === undefined ? rootScripts : workspaceScripts(workspace);
        if (scripts === undefined || !(script in scripts)) missing.push(`${doc}: npm run ${script}${workspace === undefined ? '' : ` -w ${workspace}`}`);
      }
      for (const match of text.matchAll(/npm run bench -- ([\w-]+)/g)) {
        const name = match[1] ?? '';
        if (!benchFiles.some((file) => file.includes(name))) missing.push(`${doc}: npm run bench -- ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every section cited by name exists on its page', () => {
    const missing: string[] = [];
    const citing = [...docs, ...sourceFiles(root, ['.ts', '.tsx', '.mjs'])].filter((file) => !file.startsWith('docs/spec/') && file !== 'test/docs-links.integration.test.ts');
    for (const file of citing) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const match of text.matchAll(SECTION_CITE)) {
        const [, page = '', raw = ''] = match;
        const section = flatten(raw);
        if (!sectionNames(page).some((name) => name.includes(section))) missing.push(`${file}: ${page} "${section}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('tells a missing path from an existing one', () => {
    expect(pathExists('docs/ARCHITECTURE.md')).toBe(true);
    expect(pathExists('libs/ports/contract/*.contract.ts')).toBe(true);
    expect(pathExists('services/<name>/src/index.ts')).toBe(true);
    expect(pathExists('deploy/k8s/base')).toBe(true);
    expect(pathExists('docs/NO_SUCH_PAGE.md')).toBe(false);
    expect(pathExists('services/<name>/src/no-such-file.ts')).toBe(false);
  });
});
