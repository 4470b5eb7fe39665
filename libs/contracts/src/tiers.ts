/**
 * The tier catalogue (docs/spec/part-2.txt sections 3, 9): one module read by every service and the web app.
 * Values are Skald's price list; see docs/TIERS.md for the reasoning.
 */

export const TIER_KEYS = ['free', 'lite', 'starter', 'explorer', 'voyager', 'pioneer', 'pro', 'legend'] as const;
export type TierKey = (typeof TIER_KEYS)[number];

export interface Tier {
  readonly key: TierKey;
  readonly label: string;
  /** Euro per month. */
  readonly price: number;
  /** Logs per hour (text and photo logs together), counted per log. */
  readonly limit: number;
  readonly retentionDays: number;
  readonly maxPhotoLogs: number;
  readonly maxServerUsers: number;
  readonly maxExportsPerMonth: number;
  readonly maxWebhooks: number;
  readonly maxBackups: number;
  /** Alert rules per server (docs/ALERTS.md); they notify through webhooks, so a tier without webhooks has none. */
  readonly maxAlertRules: number;
  /** Evidence cases per server, open or closed (docs/CASES.md). */
  readonly maxCases: number;
}

export const TIERS: readonly Tier[] = [
  { key: 'free', label: 'Free', price: 0, limit: 1_000, retentionDays: 7, maxPhotoLogs: 10, maxServerUsers: 2, maxExportsPerMonth: 2, maxWebhooks: 0, maxBackups: 0, maxAlertRules: 0, maxCases: 3 },
  { key: 'lite', label: 'Lite', price: 2.99, limit: 5_000, retentionDays: 14, maxPhotoLogs: 50, maxServerUsers: 3, maxExportsPerMonth: 5, maxWebhooks: 1, maxBackups: 1, maxAlertRules: 1, maxCases: 10 },
  { key: 'starter', label: 'Starter', price: 5.99, limit: 15_000, retentionDays: 30, maxPhotoLogs: 150, maxServerUsers: 5, maxExportsPerMonth: 10, maxWebhooks: 2, maxBackups: 3, maxAlertRules: 3, maxCases: 25 },
  { key: 'explorer', label: 'Explorer', price: 9.99, limit: 40_000, retentionDays: 45, maxPhotoLogs: 400, maxServerUsers: 8, maxExportsPerMonth: 20, maxWebhooks: 4, maxBackups: 5, maxAlertRules: 5, maxCases: 50 },
  { key: 'voyager', label: 'Voyager', price: 14.99, limit: 100_000, retentionDays: 60, maxPhotoLogs: 1_000, maxServerUsers: 12, maxExportsPerMonth: 40, maxWebhooks: 6, maxBackups: 7, maxAlertRules: 10, maxCases: 100 },
  { key: 'pioneer', label: 'Pioneer', price: 24.99, limit: 250_000, retentionDays: 90, maxPhotoLogs: 2_500, maxServerUsers: 20, maxExportsPerMonth: 75, maxWebhooks: 10, maxBackups: 10, maxAlertRules: 20, maxCases: 200 },
  { key: 'pro', label: 'Pro', price: 39.99, limit: 600_000, retentionDays: 180, maxPhotoLogs: 6_000, maxServerUsers: 35, maxExportsPerMonth: 150, maxWebhooks: 20, maxBackups: 20, maxAlertRules: 50, maxCases: 500 },
  { key: 'legend', label: 'Legend', price: 69.99, limit: 1_500_000, retentionDays: 365, maxPhotoLogs: 15_000, maxServerUsers: 75, maxExportsPerMonth: 500, maxWebhooks: 50, maxBackups: 30, maxAlertRules: 100, maxCases: 1_000 },
];

export function isTierKey(value: unknown): value is TierKey {
  return typeof value === 'string' && (TIER_KEYS as readonly string[]).includes(value);
}

/** The tier for a key; unknown keys fall back to free so a bad value never grants more. */
export function tierOf(key: string): Tier {
  return TIERS.find((t) => t.key === key) ?? TIERS[0]!;
}
