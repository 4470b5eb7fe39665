import type { LevelColor, LevelColors } from '@skald/contracts/api';
import { AA_TEXT_CONTRAST, contrastRatio, formatRatio } from '../../app/contrast.ts';
import { colorForLevel } from './logsApi.ts';

/**
 * Level colours the product specification fixes as defaults (docs/spec/part-1.txt section 3) although they read below
 * WCAG AA: warn is #b45309 text on #fee2b3, 4.0:1. They stay the defaults; the screens that show
 * level colours say so instead (LevelContrastNote), and so would the colour settings screen.
 */
export const SPEC_DEFAULT_LOW_CONTRAST: Readonly<Record<string, LevelColor>> = { warn: { bg_color: '#fee2b3', text_color: '#b45309' } };

export interface LowContrastLevel {
  level: string;
  color: LevelColor;
  ratio: number;
  /** True when the pair is the specification's own default for that level. */
  specDefault: boolean;
}

function sameColor(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The shown levels whose text/background pair reads below AA, each once, in the order given. */
export function lowContrastLevels(levels: readonly string[], colors: LevelColors | undefined): LowContrastLevel[] {
  const found: LowContrastLevel[] = [];
  for (const level of new Set(levels)) {
    const color = colorForLevel(level, colors);
    if (!color) continue;
    const ratio = contrastRatio(color.text_color, color.bg_color);
    if (ratio >= AA_TEXT_CONTRAST) continue;
    const fixed = SPEC_DEFAULT_LOW_CONTRAST[level];
    const specDefault = fixed !== undefined && sameColor(fixed.bg_color, color.bg_color) && sameColor(fixed.text_color, color.text_color);
    found.push({ level, color, ratio, specDefault });
  }
  return found;
}

/** One sentence per level, e.g. for warn's defaults: 'The warn colours (#b45309 on #fee2b3) measure 4.0:1, …'. */
export function describeLowContrast({ level, color, ratio, specDefault }: LowContrastLevel): string {
  const measured = `The ${level} colours (${color.text_color} on ${color.bg_color}) measure ${formatRatio(ratio)}, below the 4.5:1 WCAG AA asks of text.`;
  return specDefault ? `${measured} They are the default ${level} colours.` : measured;
}
