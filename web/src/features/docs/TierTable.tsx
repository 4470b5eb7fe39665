import type { ApiTier } from '@skald/contracts/api';
import { useEffect } from 'react';
import { useTiersQuery } from '../billing/billingApi.ts';

const COUNT = new Intl.NumberFormat('en-US');

interface Column {
  readonly heading: string;
  value(tier: ApiTier): string;
}

/** The columns a page can show of each tier (values from GET /tiers, never written into the page). */
export const TIER_COLUMNS = {
  retention: { heading: 'Retention (days)', value: (t: ApiTier) => COUNT.format(t.retentionDays) },
  logsPerHour: { heading: 'Logs per hour', value: (t: ApiTier) => COUNT.format(t.limit) },
  photoLogs: { heading: 'Photo logs kept', value: (t: ApiTier) => COUNT.format(t.maxPhotoLogs) },
  users: { heading: 'Users per server', value: (t: ApiTier) => COUNT.format(t.maxServerUsers) },
  webhooks: { heading: 'Webhooks', value: (t: ApiTier) => COUNT.format(t.maxWebhooks) },
  backups: { heading: 'Backups kept', value: (t: ApiTier) => COUNT.format(t.maxBackups) },
} satisfies Record<string, Column>;

/**
 * A table of the tiers (label first) loaded from GET /tiers (public). A failed load is only logged and
 * the table left out (docs/spec/part-2.txt section 8: the terms page's tiers failure is only logged).
 */
export function TierTable({ caption, columns }: { caption: string; columns: readonly Column[] }) {
  const { data, error } = useTiersQuery(undefined);
  useEffect(() => {
    if (error) console.warn('Could not load the tiers (GET /api/tiers).', error);
  }, [error]);
  if (!data) return null;
  return (
    <table data-testid="tier-table">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Tier</th>
          {columns.map((column) => (
            <th scope="col" key={column.heading}>
              {column.heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.map((tier) => (
          <tr key={tier.key}>
            <th scope="row">{tier.label}</th>
            {columns.map((column) => (
              <td key={column.heading}>{column.value(tier)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
