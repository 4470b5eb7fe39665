/**
 * Checks of a settings body beyond its schema, with sentences that name the field as the form labels it
 * (fieldLabel, the one formatter of refused fields in @skald/contracts). The host also goes
 * through the outbound guard here, so an internal address is refused when it is saved (and again at every
 * run, since a name can resolve elsewhere later). A name that does not resolve yet is accepted: saving
 * does not need the database to be reachable.
 */
import { fieldLabel } from '@skald/contracts';
import type { BackupSettingsBody } from '@skald/contracts';
import { HttpError, OutboundRefused } from '@skald/service-kit';
import type { OutboundGuard } from '@skald/service-kit';
import { isComplete } from './backup-settings.ts';

/** Host names (letters, digits, hyphens, dots, underscores), IPv4, and IPv6 with or without brackets. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?|\[?[0-9A-Fa-f:.]+\]?)$/;
/** Printable text without control characters (they have no place in a user or database name). */
const PRINTABLE = /^[^\p{Cc}]*$/u;

export async function checkSettingsInput(body: BackupSettingsBody, guard: OutboundGuard): Promise<void> {
  const host = body.db_host.trim();
  if (host !== '' && !HOST.test(host)) throw new HttpError(400, `${fieldLabel('db_host')} must be a host name or an IP address.`);
  if (!PRINTABLE.test(body.db_user)) throw new HttpError(400, `${fieldLabel('db_user')} must not contain control characters.`);
  if (!PRINTABLE.test(body.db_name)) throw new HttpError(400, `${fieldLabel('db_name')} must not contain control characters.`);
  if (body.db_pass_enc !== undefined && body.db_pass_enc.includes('\u0000')) throw new HttpError(400, `${fieldLabel('db_pass_enc')} must not contain NUL characters.`);
  if (body.enabled && !isComplete({ host, user: body.db_user, database: body.db_name })) {
    throw new HttpError(400, 'Scheduled backups need the database host, user and name');
  }
  if (host === '') return;
  try {
    await guard.resolve(host);
  } catch (error) {
    if (error instanceof OutboundRefused) throw new HttpError(400, error.message);
    // Not resolvable (yet): stored; a run will say so.
  }
}
