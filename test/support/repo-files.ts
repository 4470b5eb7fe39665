/**
 * The repository's own files, as the checks over the tree see them: what git tracks (and files added but not
 * yet committed), or, where the tree is no git checkout, a walk that skips dependencies and build output.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'data', 'test-output', '.nx', 'coverage']);

function walk(root: string, folder: string, out: string[]): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) walk(root, join(folder, entry.name), out);
    } else if (entry.isFile()) out.push(relative(root, join(folder, entry.name)));
  }
}

/** Every file of the repository, relative to `root`, with forward slashes. */
export function repositoryFiles(root: string): string[] {
  try {
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return listed.split('\0').filter((file) => file !== '');
  } catch {
    const out: string[] = [];
    walk(root, root, out);
    return out;
  }
}

/** The repository's files ending in one of `extensions` (e.g. '.ts'). */
export function sourceFiles(root: string, extensions: readonly string[]): string[] {
  return repositoryFiles(root).filter((file) => extensions.some((extension) => file.endsWith(extension)));
}
