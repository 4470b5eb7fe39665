// WCAG 2.1 contrast (relative luminance, 1.4.3): used to hold the theme's colours to AA in tests and
// to tell users when a server's level colours read below it.

/** AA minimum for normal-size text. */
export const AA_TEXT_CONTRAST = 4.5;

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0..1 */
  a: number;
}

/** Parses #rgb, #rgba, #rrggbb, #rrggbbaa and rgb()/rgba(); null for anything else. */
export function parseColor(css: string): Rgba | null {
  const value = css.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(value)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    const byte = (i: number) => parseInt(full.slice(i * 2, i * 2 + 2), 16);
    return { r: byte(0), g: byte(1), b: byte(2), a: full.length === 8 ? byte(3) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(value);
  if (fn) return { r: Number(fn[1]), g: Number(fn[2]), b: Number(fn[3]), a: fn[4] === undefined ? 1 : Number(fn[4]) };
  return null;
}

/** `top` painted over the opaque `bottom`. */
export function blend(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, b: number) => t * top.a + b * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function luminance({ r, g, b }: Rgba): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/**
 * The contrast ratio (1..21) of text colour `fg` on `bg`. Translucent colours are painted first:
 * `bg` over `backdrop` (white unless given), then `fg` over that.
 */
export function contrastRatio(fg: string, bg: string, backdrop = '#ffffff'): number {
  const base = parseColor(backdrop) ?? WHITE;
  const back = blend(parseColor(bg) ?? WHITE, { ...base, a: 1 });
  const front = blend(parseColor(fg) ?? WHITE, back);
  const [light, dark] = [luminance(front), luminance(back)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** One decimal, rounded down, so a pair shown as 4.5:1 really meets 4.5:1. */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}
