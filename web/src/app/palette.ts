import { theme as antTheme, type ThemeConfig } from 'antd';

// The app's colours in one place, per theme: the page and panel colours our own CSS reads (as custom
// properties on the app root) and the antd tokens, so both sides agree. Every text colour here meets
// WCAG AA (4.5:1) on the backgrounds it is used on (web/test/palette.test.ts measures them); antd's
// defaults do not (its link blue is 4.1:1, descriptions 3.4:1, placeholders 1.8:1).

export type ThemeMode = 'light' | 'dark';

/** antd's font stack, used for our own markup too, so headers, sidebar and antd controls match. */
export const FONT_FAMILY = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'";

export interface Palette {
  /** Page background. */
  page: string;
  /** Header, sidebar, footer, cards. */
  panel: string;
  border: string;
  text: string;
  /** Secondary text (captions, times, '(coming soon)'). */
  muted: string;
  link: string;
  /** Hovered links and the active sidebar entry's text. */
  linkStrong: string;
  /** The active sidebar entry's tint (over the panel). */
  activeBg: string;
  /** antd: descriptions, statistic titles, empty states, secondary typography. */
  description: string;
  /** antd: input and select placeholders. */
  placeholder: string;
  /** Primary buttons on hover and press (white text on them). */
  primaryHover: string;
  primaryActive: string;
  /** antd's text colour (colorText), for our markup that stands in for antd's Card and Typography. */
  bodyText: string;
  /** antd's card border (colorBorderSecondary), for the same. */
  cardBorder: string;
  /** A form field's error sentence under it (antd's error red is 3.3:1 on white, 4.1:1 on the dark panel). */
  fieldError: string;
}

export const PALETTES: Readonly<Record<ThemeMode, Palette>> = {
  light: {
    page: '#f5f6f8',
    panel: '#ffffff',
    border: '#e5e7eb',
    text: '#1f2937',
    muted: '#5f6b7a',
    link: '#2563eb',
    linkStrong: '#1d4ed8',
    activeBg: 'rgba(37, 99, 235, 0.12)',
    description: 'rgba(0, 0, 0, 0.6)',
    placeholder: 'rgba(0, 0, 0, 0.56)',
    primaryHover: '#1d4ed8',
    primaryActive: '#1e40af',
    bodyText: 'rgba(0, 0, 0, 0.88)',
    cardBorder: '#f0f0f0',
    fieldError: '#c41d1f',
  },
  dark: {
    page: '#0f1115',
    panel: '#181b21',
    border: '#2a2f38',
    text: '#e5e7eb',
    muted: '#9ca3af',
    link: '#60a5fa',
    linkStrong: '#93c5fd',
    activeBg: 'rgba(37, 99, 235, 0.2)',
    description: 'rgba(255, 255, 255, 0.55)',
    placeholder: 'rgba(255, 255, 255, 0.5)',
    primaryHover: '#2a5fd8',
    primaryActive: '#1d4ed8',
    bodyText: 'rgba(255, 255, 255, 0.85)',
    cardBorder: '#303030',
    fieldError: '#ff7b7d',
  },
};

/** The custom properties styles.css reads (set on the app root). */
export function cssVariables(mode: ThemeMode): Record<string, string> {
  const p = PALETTES[mode];
  return {
    '--page': p.page,
    '--panel': p.panel,
    '--border': p.border,
    '--text': p.text,
    '--muted': p.muted,
    '--link': p.link,
    '--link-strong': p.linkStrong,
    '--active-bg': p.activeBg,
    '--body-text': p.bodyText,
    '--card-border': p.cardBorder,
    '--font': FONT_FAMILY,
  };
}

/** The antd theme for a mode: its algorithm plus our colours wherever antd's would fall short of AA. */
export function antdThemeConfig(mode: ThemeMode): ThemeConfig {
  const p = PALETTES[mode];
  return {
    algorithm: mode === 'dark' ? antTheme.darkAlgorithm : antTheme.defaultAlgorithm,
    token: {
      colorPrimary: '#2563eb',
      colorPrimaryHover: p.primaryHover,
      colorPrimaryActive: p.primaryActive,
      colorLink: p.link,
      colorLinkHover: p.linkStrong,
      colorLinkActive: p.linkStrong,
      colorTextTertiary: p.description,
      colorTextDescription: p.description,
      colorTextPlaceholder: p.placeholder,
      colorBgLayout: p.page,
      colorBgContainer: p.panel,
      fontFamily: FONT_FAMILY,
    },
    components: {
      // Default buttons take the primary hover colour as text on hover, which is 3.3:1 on white.
      Button: { defaultHoverColor: p.linkStrong, defaultHoverBorderColor: p.linkStrong, defaultActiveColor: p.linkStrong, defaultActiveBorderColor: p.linkStrong },
      // A refused field's sentence under it (and its red border): readable, in forms only, so danger
      // buttons and other reds keep antd's.
      Form: { colorError: p.fieldError },
    },
  };
}
