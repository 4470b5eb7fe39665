/**
 * What the web app needs to know about the installation it runs on: served by the gateway,
 * which also serves the web app, at GET /api/public-config (no sign-in; nothing in it is a secret).
 */
import Type from 'typebox';
import type { Static } from 'typebox';

export const PublicConfigSchema = Type.Object(
  {
    /** SUPPORT_EMAIL: the address the privacy policy and the terms give for questions; null when not configured. */
    supportEmail: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type PublicConfig = Static<typeof PublicConfigSchema>;
