import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { AA_TEXT_CONTRAST, contrastRatio, formatRatio, parseColor } from '../src/app/contrast.ts';
import { antdThemeConfig, PALETTES, type ThemeMode } from '../src/app/palette.ts';

// Contrast: antd's default link blue (4.1:1 light, 3.3:1 dark), its description grey (3.4:1)
// and placeholder grey (1.8:1) failed WCAG AA. These measure every text colour of both themes on the
// backgrounds it is painted on.

describe('contrast ratio (WCAG 2.1)', () => {
  it('measures the known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // docs/spec/part-1.txt section 3's default warn colours: the figure the issue quotes.
    expect(formatRatio(contrastRatio('#b45309', '#fee2b3'))).toBe('4.0:1');
    expect(formatRatio(contrastRatio('#1677ff', '#ffffff'))).toBe('4.1:1');
  });

  it('parses the hex forms the colour settings accept, and rgba', () => {
    expect(parseColor('#333')).toEqual({ r: 51, g: 51, b: 51, a: 1 });
    expect(parseColor('#00000080')?.a).toBeCloseTo(0.5, 2);
    expect(parseColor('rgba(0, 0, 0, 0.6)')).toEqual({ r: 0, g: 0, b: 0, a: 0.6 });
    expect(parseColor('red')).toBeNull();
  });

  it('paints translucent text over its background first', () => {
    // rgba(0,0,0,0.45) over white is #8c8c8c: antd's statistic title colour, 3.36:1.
    expect(contrastRatio('rgba(0,0,0,0.45)', '#ffffff')).toBeCloseTo(contrastRatio('#8c8c8c', '#ffffff'), 1);
  });
});

const MODES: ThemeMode[] = ['light', 'dark'];

describe.each(MODES)('%s theme colours meet AA (4.5:1)', (mode) => {
  const p = PALETTES[mode];
  const config = antdThemeConfig(mode);
  const token = theme.getDesignToken(config);
  const button = config.components?.Button ?? {};

  const pairs: [string, string, string, string?][] = [
    // our own markup
    ['text on page', p.text, p.page],
    ['muted on page', p.muted, p.page],
    ['muted on panel', p.muted, p.panel],
    ['link on page', p.link, p.page],
    ['link on panel', p.link, p.panel],
    ['card and landing text', p.bodyText, p.panel],
    ['landing text on the page', p.bodyText, p.page],
    ['active sidebar entry', p.linkStrong, p.activeBg, p.panel],
    // antd components
    ['antd link', token.colorLink, token.colorBgContainer],
    ['antd link on the page', token.colorLink, token.colorBgLayout],
    ['antd link hover', token.colorLinkHover, token.colorBgContainer],
    ['descriptions, statistic titles, empty states', token.colorTextDescription, token.colorBgContainer],
    ['descriptions on the page', token.colorTextDescription, token.colorBgLayout],
    ['secondary typography', token.colorTextSecondary, token.colorBgLayout],
    ['placeholders', token.colorTextPlaceholder, token.colorBgContainer],
    ['default button hover text', String(button.defaultHoverColor), token.colorBgContainer],
    ['primary button', '#ffffff', token.colorPrimary],
    ['primary button hover', '#ffffff', token.colorPrimaryHover],
    ['primary button pressed', '#ffffff', token.colorPrimaryActive],
    ["a form field's error sentence", String(config.components?.Form?.colorError), token.colorBgContainer],
  ];

  it.each(pairs)('%s', (_name, fg, bg, backdrop) => {
    const ratio = contrastRatio(fg, bg, backdrop);
    expect(ratio, `${fg} on ${bg}: ${formatRatio(ratio)}`).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
  });

  it('antd cards and layout use the same page and panel colours as our own markup', () => {
    expect(token.colorBgContainer).toBe(p.panel);
    expect(token.colorBgLayout).toBe(p.page);
  });

  it("our cards (Panel) and plain paragraphs take antd's card border and text colours", () => {
    expect(parseColor(p.bodyText)).toEqual(parseColor(token.colorText));
    expect(parseColor(p.cardBorder)).toEqual(parseColor(token.colorBorderSecondary));
  });
});
