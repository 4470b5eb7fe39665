import type { LevelColors } from '@skald/contracts/api';
import { describeLowContrast, lowContrastLevels } from './levelContrast.ts';

/**
 * Under a list of level-coloured logs: names the shown levels whose colours read below WCAG AA (the
 * spec's default warn colours do). Nothing when every shown level is readable.
 */
export function LevelContrastNote({ levels, colors }: { levels: readonly string[]; colors: LevelColors | undefined }) {
  const low = lowContrastLevels(levels, colors);
  if (low.length === 0) return null;
  return (
    <p className="contrast-note muted" role="note" data-testid="contrast-note">
      {low.map(describeLowContrast).join(' ')} Level colours are set per server in its colour settings.
    </p>
  );
}
