/**
 * HTTP answer shapes of the compatible ingestion endpoints (ingestion service, http/compat/): the answers
 * the clients FiveM servers already run expect from Fivemanage, Discord and screenshot uploads. Loki (204),
 * Datadog (202) and Discord (204) answer without a body. docs/INGESTION.md "Compatible endpoints".
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/** 200 of the Fivemanage log routes: what Fivemanage answers, and all ox_lib and qb-log look at. */
export const CompatStatusSchema = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
export type CompatStatus = Static<typeof CompatStatusSchema>;

const UploadedRefSchema = Type.Object(
  {
    /** The photo log's id (UUIDv7). */
    id: Type.String(),
    /** The photo log's page in the web app (login required): never a public or signed image address. */
    url: Type.String(),
  },
  { additionalProperties: false },
);

/**
 * 200 of the screenshot upload routes: `id` and `url` at the top level (what screenshot-basic callbacks
 * written for Discord-style hosts read) AND under `data` (the Fivemanage SDK's ImageUploadResponseSchema).
 */
export const UploadedFileSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    status: Type.Literal('ok'),
    data: UploadedRefSchema,
  },
  { additionalProperties: false },
);
export type UploadedFile = Static<typeof UploadedFileSchema>;
