/**
 * The browser's time zone (an IANA name such as Europe/Berlin). The list queries send it with Date from /
 * Date to so the server bounds the user's own days, not UTC days (docs/LOGS_API.md).
 * Undefined when the browser does not say; the server then takes UTC days.
 */
export function userTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
