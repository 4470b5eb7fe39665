import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { isRawValidatorText } from '@skald/contracts/api';

// Servers answer errors as JSON { error, message }; docs/spec/part-1.txt section 8 says which field to show.
export type ApiError = FetchBaseQueryError | SerializedError | undefined | unknown;

function bodyOf(err: ApiError): Record<string, unknown> | null {
  if (typeof err !== 'object' || err === null) return null;
  const data = (err as { data?: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : null;
}

/**
 * A text field of the answer, if it is one a person can read. The servers answer refused inputs in
 * sentences (@skald/contracts validation-messages.ts); a validator's own wording ('username must NOT have
 * fewer than 3 characters'), from an older or foreign server, is passed over so the screen's fallback shows.
 */
function textField(body: Record<string, unknown> | null, field: string): string | null {
  const value = body?.[field];
  return typeof value === 'string' && value.trim() !== '' && !isRawValidatorText(value) ? value : null;
}

/** The server's `error` field, else its `message`, else the screen's fallback text. */
export function errorText(err: ApiError, fallback: string): string {
  const body = bodyOf(err);
  return textField(body, 'error') ?? textField(body, 'message') ?? fallback;
}

/** Register shows the server's `message` field first (docs/spec/part-1.txt section 8). */
export function messageText(err: ApiError, fallback: string): string {
  const body = bodyOf(err);
  return textField(body, 'message') ?? textField(body, 'error') ?? fallback;
}

export function statusOf(err: ApiError): number | string | null {
  if (typeof err !== 'object' || err === null) return null;
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' || typeof status === 'string' ? status : null;
}
