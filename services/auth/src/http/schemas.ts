/**
 * Request schemas; the answer schemas are the identity API contract (@skald/contracts/api). Bodies
 * refuse unknown fields (additionalProperties false: the service kit's validator answers 400 naming the
 * field, so role, tier, owner or ids can never be mass-assigned) and every field is typed without
 * coercion, so a JSON operator object such as {"$ne": null}, an array or a number in a text field is a 400.
 */
import Type from 'typebox';
import { ErrorBodySchema } from '@skald/contracts/api';

const Username = Type.String({ minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' });
const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' });
const NewPassword = Type.String({ minLength: 8, maxLength: 128 });
/** Existing passwords are only length-capped: rules may have changed since they were set. */
const AnyPassword = Type.String({ minLength: 1, maxLength: 128 });
const Code = Type.String({ maxLength: 16 });
const OpaqueToken = Type.String({ minLength: 1, maxLength: 128 });
export const IdSchema = Type.String({ minLength: 1, maxLength: 64 });
export const ServerName = Type.String({ maxLength: 64 });

export const RegisterBody = Type.Object({ username: Username, password: NewPassword, email: Email }, { additionalProperties: false });
export const LoginBody = Type.Object({ username: Type.String({ minLength: 1, maxLength: 254 }), password: AnyPassword }, { additionalProperties: false });
export const TwoFactorLoginBody = Type.Object({ token: OpaqueToken, code: Code }, { additionalProperties: false });
export const ForgotBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false });
export const ResetBody = Type.Object({ token: OpaqueToken, password: NewPassword }, { additionalProperties: false });

export const UsernameBody = Type.Object({ username: Username }, { additionalProperties: false });
export const EmailBody = Type.Object({ email: Email }, { additionalProperties: false });
export const PasswordBody = Type.Object({ currentPassword: AnyPassword, newPassword: NewPassword }, { additionalProperties: false });

/** The spec names the 6-digit code `token` in /2fa/verify and /2fa/disable. */
export const CodeBody = Type.Object({ token: Code }, { additionalProperties: false });

export const CreateServerBody = Type.Object({ name: ServerName }, { additionalProperties: false });
export const RenameServerBody = Type.Object({ serverId: IdSchema, newName: ServerName }, { additionalProperties: false });
export const ServerIdQuery = Type.Object({ serverId: IdSchema }, { additionalProperties: false });

export const ServerParams = Type.Object({ id: IdSchema }, { additionalProperties: false });
export const ServerUserParams = Type.Object({ id: IdSchema, userId: IdSchema }, { additionalProperties: false });
const AssignableRole = Type.Union([Type.Literal('admin'), Type.Literal('user')]);
export const AddUserBody = Type.Object({ serverId: IdSchema, email: Type.String({ minLength: 1, maxLength: 254 }), role: AssignableRole }, { additionalProperties: false });
export const RoleBody = Type.Object({ role: AssignableRole }, { additionalProperties: false });

/** Error answers a route can give, all in the one `{ error, message }` shape. */
export function errorAnswers<const C extends readonly number[]>(...codes: C): Record<C[number], typeof ErrorBodySchema> {
  return Object.fromEntries(codes.map((code) => [code, ErrorBodySchema])) as Record<C[number], typeof ErrorBodySchema>;
}
