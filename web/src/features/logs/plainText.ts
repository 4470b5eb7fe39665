import type { ApiLog } from '@skald/contracts/api';

// Log fields are written by game servers, i.e. by whoever holds an API key: treat them as hostile.
// React already renders them as text (there is no HTML injection anywhere in the app); this module
// additionally strips terminal colour codes, which FiveM/Minecraft consoles emit, and turns other
// control characters into a visible replacement so nothing invisible reaches the screen.

// CSI sequences (ESC [ ... final byte) and OSC sequences (ESC ] ... BEL or ESC \), then lone ESC pairs.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g;
// C0 and C1 controls except tab, line feed and carriage return, which pre-wrap renders sensibly.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Any value as display text: ANSI codes removed, other control characters made visible. */
export function plainText(value: unknown): string {
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(ANSI, '').replace(CONTROL, '\uFFFD');
}

/**
 * A log as the screens show it: every text field a clean string. The contract types the answer, but its
 * values were written by API-key holders, so each field is coerced anyway (a non-string would crash React).
 */
export function cleanLogEntry(raw: ApiLog): ApiLog {
  const metadata = typeof raw.metadata === 'object' && raw.metadata !== null && !Array.isArray(raw.metadata) ? raw.metadata : null;
  return {
    ...raw,
    id: String(raw.id),
    created_at: String(raw.created_at ?? ''),
    level: plainText(raw.level),
    type: plainText(raw.type),
    resource: plainText(raw.resource),
    message: plainText(raw.message),
    metadata,
  };
}
