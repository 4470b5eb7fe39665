/**
 * The alert rule form's rules and the list's texts, kept out of the components and tested on their own
 * (docs/ALERTS.md): empty filter fields are left out (= any log); metadata is written one `key=value` a
 * line; a threshold rule needs a threshold, an absence rule sends none.
 */
import type { AlertFilter, AlertKind, ApiAlertRule, UpdateAlertBody } from '@skald/contracts/api';

export const ALERT_TEXT = {
  added: 'Alert rule added ✅',
  addFailed: 'Failed to add alert rule ❌',
  updated: 'Alert rule updated ✅',
  updateFailed: 'Update failed ❌',
  deleted: 'Alert rule deleted ✅',
  deleteFailed: 'Failed to delete ❌',
  testSent: 'Test sent 🚀',
  testFailed: 'Alert test failed ❌',
  nameRequired: 'Give the rule a name.',
  thresholdRequired: 'A threshold rule needs a threshold of at least 1.',
  windowRequired: 'The window must be a whole number of seconds.',
  cooldownInvalid: 'The cooldown must be a whole number of seconds, 0 or more.',
  metadataLine: 'Write each metadata filter on its own line as key=value.',
} as const;

export const KIND_LABELS: Readonly<Record<AlertKind, string>> = {
  threshold: 'Threshold (too many matching logs)',
  absence: 'Absence (no matching log)',
};

export interface AlertFormValues {
  name: string;
  kind: AlertKind;
  threshold: string;
  windowSeconds: string;
  cooldownSeconds: string;
  level: string;
  type: string;
  resource: string;
  search: string;
  /** `key=value`, one a line. */
  metadata: string;
  webhookIds: readonly string[];
  enabled: boolean;
}

export const EMPTY_ALERT_FORM: AlertFormValues = {
  name: '',
  kind: 'threshold',
  threshold: '10',
  windowSeconds: '300',
  cooldownSeconds: '0',
  level: '',
  type: '',
  resource: '',
  search: '',
  metadata: '',
  webhookIds: [],
  enabled: true,
};

const WHOLE = /^\d+$/;

function metadataOf(text: string): Record<string, string> | null {
  const pairs: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    if (at <= 0 || line.slice(0, at).trim() === '') return null;
    pairs[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return pairs;
}

/** The sentence that keeps the form from being sent, or null when it may be sent (the server has the last word). */
export function alertFormProblem(values: AlertFormValues): string | null {
  if (values.name.trim() === '') return ALERT_TEXT.nameRequired;
  if (values.kind === 'threshold' && (!WHOLE.test(values.threshold.trim()) || Number(values.threshold) < 1)) return ALERT_TEXT.thresholdRequired;
  if (!WHOLE.test(values.windowSeconds.trim())) return ALERT_TEXT.windowRequired;
  if (!WHOLE.test(values.cooldownSeconds.trim())) return ALERT_TEXT.cooldownInvalid;
  if (metadataOf(values.metadata) === null) return ALERT_TEXT.metadataLine;
  return null;
}

/** The PUT body (POST adds serverId). Call only when alertFormProblem is null. */
export function toAlertBody(values: AlertFormValues): UpdateAlertBody {
  const filter: AlertFilter = {};
  const level = values.level.trim();
  const type = values.type.trim();
  const resource = values.resource.trim();
  const search = values.search.trim();
  if (level) filter.level = level;
  if (type) filter.type = type;
  if (resource) filter.resource = resource;
  if (search) filter.search = search;
  const metadata = metadataOf(values.metadata) ?? {};
  if (Object.keys(metadata).length > 0) filter.metadata = metadata;
  return {
    name: values.name.trim(),
    kind: values.kind,
    filter,
    threshold: values.kind === 'threshold' ? Number(values.threshold) : null,
    windowSeconds: Number(values.windowSeconds),
    webhookIds: [...values.webhookIds],
    cooldownSeconds: Number(values.cooldownSeconds),
    enabled: values.enabled,
  };
}

export function fromAlertRule(rule: ApiAlertRule): AlertFormValues {
  return {
    name: rule.name,
    kind: rule.kind,
    threshold: rule.threshold === null ? EMPTY_ALERT_FORM.threshold : String(rule.threshold),
    windowSeconds: String(rule.windowSeconds),
    cooldownSeconds: String(rule.cooldownSeconds),
    level: rule.filter.level ?? '',
    type: rule.filter.type ?? '',
    resource: rule.filter.resource ?? '',
    search: rule.filter.search ?? '',
    metadata: Object.entries(rule.filter.metadata ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    webhookIds: rule.webhookIds,
    enabled: rule.enabled,
  };
}

/** What the rule watches, in a sentence: 'at least 10 matching logs in 300 s' or 'no matching log for 600 s'. */
export function conditionText(rule: Pick<ApiAlertRule, 'kind' | 'threshold' | 'windowSeconds'>): string {
  return rule.kind === 'threshold'
    ? `At least ${rule.threshold ?? 0} matching log${rule.threshold === 1 ? '' : 's'} in ${rule.windowSeconds} s`
    : `No matching log for ${rule.windowSeconds} s`;
}

/** The filter as 'level error · type Kill · metadata job=police', or 'Every log'. */
export function filterSummary(filter: AlertFilter): string {
  const parts: string[] = [];
  if (filter.level) parts.push(`level ${filter.level}`);
  if (filter.type) parts.push(`type ${filter.type}`);
  if (filter.resource) parts.push(`resource ${filter.resource}`);
  if (filter.search) parts.push(`message contains "${filter.search}"`);
  for (const [k, v] of Object.entries(filter.metadata ?? {})) parts.push(`metadata ${k}=${v}`);
  return parts.length === 0 ? 'Every log' : parts.join(' · ');
}

/** 'n / limit alert rules used'. */
export function alertsUsedLine(count: number, limit: number): string {
  return `${count} / ${limit} alert rules used`;
}
