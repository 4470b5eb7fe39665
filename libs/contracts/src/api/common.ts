/**
 * HTTP answer shapes shared by every service. Each answer is ONE TypeBox schema: the route declares it as
 * its `response` schema (validation of what we send and fast serialisation), the OpenAPI document is
 * generated from the routes, and the web app imports the static type (`import type` from
 * '@skald/contracts/api': this entry point has no Node-only imports, so the browser build can read it).
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/** The one error shape (libs/service-kit/src/errors.ts): `error` is shown to the user, `message` adds detail. */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.String(),
    message: Type.String(),
  },
  { additionalProperties: true, $id: 'ErrorBody' },
);
export type ErrorBodyAnswer = Static<typeof ErrorBodySchema>;

/** `{ message }` answers of actions that return nothing else (spec texts such as 'Server deleted'). */
export const MessageAnswerSchema = Type.Object({ message: Type.String() }, { additionalProperties: false });
export type MessageAnswer = Static<typeof MessageAnswerSchema>;
