/**
 * Per-server level colours (spec 000 §3, 001 §2 Colour settings).
 *
 * Colours are keyed by the real log levels (info, warn, error, fatal, debug) so the web app can look a
 * log's colour up by its level. The spec's three defaults map as: info -> info, warn -> warn, and its
 * "danger" colours -> error and fatal; debug (no default in the spec) gets the spec's fallback colours.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { LOG_LEVELS } from '@skald/contracts';
import type { LogLevel } from '@skald/contracts';
import type { BaseDocument, Collection, DocumentStore } from '@skald/ports';

export interface LevelColor {
  readonly bg_color: string;
  readonly text_color: string;
}

export type LevelColors = Readonly<Record<LogLevel, LevelColor>>;

const INFO: LevelColor = { bg_color: '#f0f0f0', text_color: '#333' };
const WARN: LevelColor = { bg_color: '#fee2b3', text_color: '#b45309' };
const DANGER: LevelColor = { bg_color: '#fecaca', text_color: '#991b1b' };
/** Spec 000 §3 fallback for an unknown level: #374151 on #d1d5db. */
export const FALLBACK_COLOR: LevelColor = { bg_color: '#374151', text_color: '#d1d5db' };

export const DEFAULT_LEVEL_COLORS: LevelColors = { info: INFO, warn: WARN, error: DANGER, fatal: DANGER, debug: FALLBACK_COLOR };

/** The levels whose colours can be set (GET /settings/levels answers { types: COLOR_LEVELS }). */
export const COLOR_LEVELS: readonly LogLevel[] = LOG_LEVELS;

/** CSS hex colours only: the value ends up in a style attribute in the web app. */
const Hex = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$', maxLength: 9 });
const LevelColorSchema = Type.Object({ bg_color: Hex, text_color: Hex }, { additionalProperties: false });

/** PUT body: any subset of the levels; levels left out keep their colours. */
export const LevelColorsUpdateSchema = Type.Object(
  Object.fromEntries(LOG_LEVELS.map((level) => [level, Type.Optional(LevelColorSchema)])) as Record<LogLevel, Type.TOptional<typeof LevelColorSchema>>,
  { additionalProperties: false, minProperties: 1 },
);
export type LevelColorsUpdate = Static<typeof LevelColorsUpdateSchema>;

interface ColorsDocument extends BaseDocument {
  readonly colors: Partial<Record<LogLevel, LevelColor>>;
  readonly updatedAt: number;
}

export interface LevelColorsRepository {
  get(serverId: string): Promise<LevelColors>;
  /** Merges the update into the stored colours and returns the full result. */
  update(serverId: string, update: LevelColorsUpdate): Promise<LevelColors>;
}

export async function createLevelColorsRepository(docs: DocumentStore): Promise<LevelColorsRepository> {
  const collection: Collection<ColorsDocument> = await docs.collection<ColorsDocument>('level_colors');
  const merged = (stored: Partial<Record<LogLevel, LevelColor>> | undefined): LevelColors => {
    const result = { ...DEFAULT_LEVEL_COLORS };
    for (const level of LOG_LEVELS) {
      const color = stored?.[level];
      if (color) result[level] = { bg_color: color.bg_color, text_color: color.text_color };
    }
    return result;
  };
  return {
    async get(serverId) {
      return merged((await collection.findOne({ _id: serverId }))?.colors);
    },
    async update(serverId, update) {
      const current = merged((await collection.findOne({ _id: serverId }))?.colors);
      const next: Record<LogLevel, LevelColor> = { ...current };
      for (const level of LOG_LEVELS) {
        const color = update[level];
        if (color) next[level] = { bg_color: color.bg_color, text_color: color.text_color };
      }
      await collection.updateOne({ _id: serverId }, { $set: { colors: next, updatedAt: Date.now() } }, { upsert: true });
      return next;
    },
  };
}
