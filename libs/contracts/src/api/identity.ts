/**
 * HTTP answer shapes of the identity (auth) service (see common.ts for how they are used). Field names
 * follow the spec's clients (snake_case where the spec has it: two_factor_enabled, api_key, pre_token).
 * Answers that only carry a text use MessageAnswerSchema from common.ts.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { SITE_ROLES } from '../roles.ts';

/** A site role in every answer (/auth/me, the admin area): the one list of roles.ts. */
export const SiteRoleSchema = Type.Enum(SITE_ROLES);
const ServerRoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('user')]);

/** The signed-in user as GET /auth/me shows it. */
export const UserViewSchema = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    email: Type.String(),
    role: SiteRoleSchema,
    two_factor_enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type UserView = Static<typeof UserViewSchema>;

/** One server of the user, with the user's role on it. */
export const ServerListItemSchema = Type.Object(
  { id: Type.String(), name: Type.String(), role: ServerRoleSchema },
  { additionalProperties: false },
);
export type ServerListItem = Static<typeof ServerListItemSchema>;

/** The user's servers, oldest membership first. */
export const ServerListSchema = Type.Array(ServerListItemSchema);
export type ServerList = Static<typeof ServerListSchema>;

/** GET /auth/me */
export const MeAnswerSchema = Type.Object({ user: UserViewSchema, servers: ServerListSchema }, { additionalProperties: false });
export type MeAnswer = Static<typeof MeAnswerSchema>;

/** POST /auth/register (201) */
export const RegisterAnswerSchema = Type.Object({ message: Type.String(), id: Type.String() }, { additionalProperties: false });
export type RegisterAnswer = Static<typeof RegisterAnswerSchema>;

/** A signed-in session: POST /auth/login without 2FA, POST /auth/2fa-login. */
export const SessionAnswerSchema = Type.Object({ token: Type.String(), servers: ServerListSchema }, { additionalProperties: false });
export type SessionAnswer = Static<typeof SessionAnswerSchema>;

/** POST /auth/login for an account with 2FA: the pre_token goes to POST /auth/2fa-login with the code. */
export const TwoFactorRequiredAnswerSchema = Type.Object(
  { twofa_required: Type.Literal(true), pre_token: Type.String() },
  { additionalProperties: false },
);
export type TwoFactorRequiredAnswer = Static<typeof TwoFactorRequiredAnswerSchema>;

/** POST /auth/login */
export const LoginAnswerSchema = Type.Union([SessionAnswerSchema, TwoFactorRequiredAnswerSchema]);
export type LoginAnswer = Static<typeof LoginAnswerSchema>;

/** POST /auth/refresh: a fresh access token of the same session. */
export const TokenAnswerSchema = Type.Object({ token: Type.String() }, { additionalProperties: false });
export type TokenAnswer = Static<typeof TokenAnswerSchema>;

/** Changes that revoke older tokens (PATCH /user/password, POST /2fa/verify, DELETE /2fa/disable) hand the caller a new one. */
export const MessageWithTokenAnswerSchema = Type.Object({ message: Type.String(), token: Type.String() }, { additionalProperties: false });
export type MessageWithTokenAnswer = Static<typeof MessageWithTokenAnswerSchema>;

/** GET /2fa/setup: `qr` is a PNG data URL; `secret` and `otpauth_url` are for manual entry; `token` the caller's session. */
export const TwoFactorSetupAnswerSchema = Type.Object(
  { qr: Type.String(), secret: Type.String(), otpauth_url: Type.String(), token: Type.String() },
  { additionalProperties: false },
);
export type TwoFactorSetupAnswer = Static<typeof TwoFactorSetupAnswerSchema>;

/** POST /server/servers (201): the API key is in this answer and never again. */
export const CreateServerAnswerSchema = Type.Object(
  { id: Type.String(), name: Type.String(), api_key: Type.String() },
  { additionalProperties: false },
);
export type CreateServerAnswer = Static<typeof CreateServerAnswerSchema>;

/** PATCH /settings/server-name */
export const RenameServerAnswerSchema = Type.Object(
  { message: Type.String(), id: Type.String(), name: Type.String() },
  { additionalProperties: false },
);
export type RenameServerAnswer = Static<typeof RenameServerAnswerSchema>;

/** POST /settings/api-key/reset: the new key, shown once; the old one stops working at once. */
export const ApiKeyResetAnswerSchema = Type.Object({ apiKey: Type.String() }, { additionalProperties: false });
export type ApiKeyResetAnswer = Static<typeof ApiKeyResetAnswerSchema>;

/** One member of a server as the owner's /manage screens show it. */
export const ServerUserSchema = Type.Object(
  { id: Type.String(), username: Type.String(), email: Type.String(), role: ServerRoleSchema },
  { additionalProperties: false },
);
export type ServerUser = Static<typeof ServerUserSchema>;

/** GET /manage/server/{id}/users */
export const ServerUsersSchema = Type.Array(ServerUserSchema);
export type ServerUsers = Static<typeof ServerUsersSchema>;

/** GET /manage/server/{id}/user-count: `limit` is the tier's maxServerUsers; the owner counts. */
export const ServerUserCountSchema = Type.Object(
  { current: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type ServerUserCount = Static<typeof ServerUserCountSchema>;

/** POST /manage/add-user (201) */
export const AddServerUserAnswerSchema = Type.Object({ message: Type.String(), user: ServerUserSchema }, { additionalProperties: false });
export type AddServerUserAnswer = Static<typeof AddServerUserAnswerSchema>;
