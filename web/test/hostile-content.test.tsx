import { screen, within } from '@testing-library/react';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveApiUrl } from '../src/app/api.ts';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import { plainText } from '../src/features/logs/plainText.ts';
import PhotoLogsPage from '../src/features/photologs/PhotoLogsPage.tsx';
import { LEVELS, levelColors } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const SCRIPT = '<script>window.__pwned = "script"</script>';
const IMG = '<img src=x onerror="window.__pwned = \'img\'">';
const ESC = '\u001b';
const ANSI_MESSAGE = `${ESC}[31mPlayer ${ESC}[1;4mkicked${ESC}[0m for spam${ESC}]0;title${ESC}\\`;

const hostile = {
  id: 'h1',
  created_at: '2026-01-02T10:00:00Z',
  level: `warn${ESC}[0m`,
  type: 'javascript:alert(1)',
  resource: '<a href="javascript:alert(2)">click</a>',
  message: `${SCRIPT}${IMG} ${ANSI_MESSAGE}`,
  metadata: { html: '<b onmouseover="alert(3)">bold</b>', bell: 'a\u0007b' },
  log_type: 'text',
  image_path: null,
};

const settings = {
  'GET /settings/colors': () => json(levelColors()),
  'GET /settings/levels': () => json(LEVELS),
};

declare global {
  interface Window {
    __pwned?: string;
  }
}

/** Elements that would make log content active if the app ever turned text into markup. */
function activeMarkup(root: Element): Element[] {
  return [...root.querySelectorAll('script, iframe, object, embed, b, [onerror], [onmouseover], a[href^="javascript" i]')];
}

describe('hostile log content renders inert', () => {
  it('shows tags as text, strips ANSI codes, makes control characters visible and runs nothing', async () => {
    mockApi({ ...settings, 'GET /logs/my': () => json([hostile], { headers: { 'X-Total-Count': '1' } }) });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    const card = await screen.findByTestId('log-card');

    expect(activeMarkup(card)).toEqual([]);
    expect(card.querySelectorAll('a, img')).toHaveLength(0);
    expect(window.__pwned).toBeUndefined();

    const message = card.querySelector('.log-message')!;
    expect(message.textContent).toBe(`${SCRIPT}${IMG} Player kicked for spam`);
    expect(within(card).getByText('WARN')).toBeTruthy();
    expect(within(card).getByText('[Type: javascript:alert(1)] via <a href="javascript:alert(2)">click</a>')).toBeTruthy();
    expect(card.textContent).not.toContain(ESC);

    // Metadata is JSON text: markup stays literal and control characters stay escaped.
    const pre = card.querySelector('.metadata pre')!;
    expect(pre.textContent).toContain('"html": "<b onmouseover=\\"alert(3)\\">bold</b>"');
    expect(pre.textContent).toContain('"bell": "a\\u0007b"');
  });

  it('keeps a hostile image path on the API origin and the caption as text', async () => {
    const photo = { ...hostile, log_type: 'photo', image_path: 'javascript:alert(4)', thumb_path: null };
    mockApi({ ...settings, 'GET /photologs/my': () => json({ photologs: [photo], maxPhotoLogs: 10, total: 1 }, { headers: { 'X-Total-Count': '1' } }) });
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    const card = await screen.findByTestId('photo-card');
    expect(activeMarkup(card)).toEqual([]);
    expect(card.querySelector('img')!.getAttribute('src')).toBe('/api/javascript:alert(4)');
    expect(card.querySelector('.log-message')!.textContent).toBe(`${SCRIPT}${IMG} Player kicked for spam`);
    expect(window.__pwned).toBeUndefined();
  });

  it('turns any value into clean text', () => {
    expect(plainText(`${ESC}[38;5;196mred${ESC}[0m`)).toBe('red');
    expect(plainText('tab\tand\nnewline stay')).toBe('tab\tand\nnewline stay');
    expect(plainText('nul\u0000 and del\u007f')).toBe('nul\uFFFD and del\uFFFD');
    expect(plainText({ not: 'a string' })).toBe('{"not":"a string"}');
    expect(plainText(42)).toBe('42');
    expect(plainText(null)).toBe('');
    expect(resolveApiUrl('JavaScript:alert(1)').startsWith('/api/')).toBe(true);
  });

  it('survives a server that sends non-string fields', async () => {
    const odd = { ...hostile, message: { nested: true }, type: 7, resource: null, level: 'info', metadata: ['not', 'an', 'object'] };
    mockApi({ ...settings, 'GET /logs/my': () => json([odd], { headers: { 'X-Total-Count': '1' } }) });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    const card = await screen.findByTestId('log-card');
    expect(card.querySelector('.log-message')!.textContent).toBe('{"nested":true}');
    expect(within(card).getByText('[Type: 7] via')).toBeTruthy();
    expect(within(card).queryByText('View metadata')).toBeNull();
  });
});

describe('no raw HTML injection in the source', () => {
  function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : /\.(tsx?|html)$/.test(name) ? [path] : [];
    });
  }

  it('never uses dangerouslySetInnerHTML, innerHTML, outerHTML, insertAdjacentHTML, document.write or eval', () => {
    const root = join(import.meta.dirname, '..');
    const files = [...sourceFiles(join(root, 'src')), join(root, 'index.html')];
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((file) => /dangerouslySetInnerHTML|\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\(|new Function\(/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
