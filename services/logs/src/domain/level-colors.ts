/**
 * Per-server level colours (docs/spec/part-1.txt section 3, part-2.txt section 2 "Colour settings"). The answer and update shapes are in
 * @skald/contracts (api/logs.ts); the default colours are decided here, and the web reads them from
 * GET /settings/colors instead of keeping its own.
 *
 * Colours are keyed by the real log levels (info, warn, error, fatal, debug) so the web app can look a
 * log's colour up by its level. The spec's three defaults map as: info -> info, warn -> warn, and its
 * "danger" colours -> error and fatal; debug (no default in the spec) gets the spec's fallback colours.
 */
import { COLOR_LEVELS } from '@skald/contracts';
import type { ColorLevel, LevelColor, LevelColors, LevelColorsUpdate } from '@skald/contracts';
import type { BaseDocument, Collection, DocumentStore } from '@skald/ports';

const INFO: LevelColor = { bg_color: '#f0f0f0', text_color: '#333' };
const WARN: LevelColor = { bg_color: '#fee2b3', text_color: '#b45309' };
const DANGER: LevelColor = { bg_color: '#fecaca', text_color: '#991b1b' };
/** docs/spec/part-1.txt section 3 fallback for an unknown level: #374151 on #d1d5db. */
const FALLBACK_COLOR: LevelColor = { bg_color: '#374151', text_color: '#d1d5db' };

const DEFAULT_LEVEL_COLORS: Readonly<LevelColors> = { info: INFO, warn: WARN, error: DANGER, fatal: DANGER, debug: FALLBACK_COLOR };

interface ColorsDocument extends BaseDocument {
  readonly colors: Partial<Record<ColorLevel, LevelColor>>;
  readonly updatedAt: number;
}

export interface LevelColorsRepository {
  get(serverId: string): Promise<LevelColors>;
  /** Merges the update into the stored colours and returns the full result. */
  update(serverId: string, update: LevelColorsUpdate): Promise<LevelColors>;
}

/** Copies only the two colour fields: stored documents and request bodies never carry anything else along. */
function overlay(base: Readonly<LevelColors>, colors: Partial<Record<ColorLevel, LevelColor>> | undefined): LevelColors {
  const result: LevelColors = { ...base };
  for (const level of COLOR_LEVELS) {
    const color = colors?.[level];
    if (color) result[level] = { bg_color: color.bg_color, text_color: color.text_color };
  }
  return result;
}

export async function createLevelColorsRepository(docs: DocumentStore): Promise<LevelColorsRepository> {
  const collection: Collection<ColorsDocument> = await docs.collection<ColorsDocument>('level_colors');
  const stored = async (serverId: string): Promise<LevelColors> =>
    overlay(DEFAULT_LEVEL_COLORS, (await collection.findOne({ _id: serverId }))?.colors);
  return {
    get: stored,
    async update(serverId, update) {
      const next = overlay(await stored(serverId), update);
      await collection.updateOne({ _id: serverId }, { $set: { colors: next, updatedAt: Date.now() } }, { upsert: true });
      return next;
    },
  };
}
