/**
 * Comments state the rule they carry, not where it came from: no "(issue 12)", no "spec §3" in the source.
 * An issue number means nothing to a reader without the tracker, and the spec's sections are cited by their
 * file in the repository instead ("docs/spec/part-2.txt section 8", see docs/spec/README.md).
 * Walks every tracked TypeScript and .mjs file (test names and strings included: they read the same way).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './support/repo-files.ts';

const root = join(import.meta.dirname, '..');

/** Built from pieces, so this file does not match itself. */
const ORIGIN = new RegExp(['\\b[Ii]ssues? #?\\d+', '\\b[Ss]pec(?: \\d{3})? ?' + '\u00a7', '\u00a7 ?\\d'].join('|'));

describe('comments state the rule, not its origin', () => {
  it('no source file cites an issue number or a spec section mark', () => {
    // This file names the forms it forbids, in the examples below.
    const files = sourceFiles(root, ['.ts', '.tsx', '.mjs']).filter((file) => file !== 'test/comment-origins.integration.test.ts');
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (ORIGIN.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 160)}`);
      });
    }
    // Say the rule instead; cite the spec as "docs/spec/part-N.txt section M" where its text matters.
    expect(found).toEqual([]);
  });

  it('catches the forms it forbids', () => {
    for (const text of ['// the cap (issue 17).', ' * Spec 001 §8, as written.', '(spec \u00a72)', 'see issue #3']) expect(ORIGIN.test(text)).toBe(true);
    for (const text of ['// docs/spec/part-2.txt section 8, as written.', 'tissue 3', 'an issue with the cache']) expect(ORIGIN.test(text)).toBe(false);
  });
});
