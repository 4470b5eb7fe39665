/**
 * The sentences a person reads when an input is refused: ONE formatter keyed by field and rule. The service
 * kit turns every schema refusal into one of these (libs/service-kit/src/errors.ts), and the web's own form
 * checks take the same sentence for the same rule, so a field says the same thing whether the browser or
 * the server caught it. The spec's own texts are used where it has them (docs/spec/part-2.txt section 5: 'Give the server a
 * name!', 'Insert a valid amount of days (0 or more)', 'Select at least one log type!'; docs/spec/part-1.txt section 5: 'Please
 * enter the complete 6-digit code'). A validator's wording ('must NOT have fewer than 3 characters') never
 * reaches a person.
 *
 * Browser-safe: no validator is imported; a validator's issue is read through the small ValidationIssue shape.
 */
import { MAX_CONTEXT_LINES } from './logs.ts';
import { SAVED_SEARCH_LIMITS } from './saved-searches.ts';
import { CASE_NO_LOGS } from './cases.ts';

/** The rules a field can break, whichever validator (server schema or form) found it. */
export type ValidationRule =
  | 'required'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'format'
  | 'choice'
  | 'type'
  | 'minimum'
  | 'maximum'
  | 'minItems'
  | 'maxItems'
  | 'unknownField'
  | 'invalid';

export interface FieldProblem {
  /** The field's own name (`level` for `[3].level`); '' for the request as a whole. */
  readonly field: string;
  readonly rule: ValidationRule;
  /** Where the field sits (`settings.owner`, `[3].level`); the field name when absent. */
  readonly path?: string;
  /** The bound of a length, size or count rule. */
  readonly limit?: number;
  /** minimum and maximum: the bound itself is refused too. */
  readonly exclusive?: boolean;
  /** type: the expected JSON type (string, integer, number, boolean, array, object, null). */
  readonly type?: string;
  /** format: the expected format (email, date-time, date, uri). */
  readonly format?: string;
  /** choice: the values offered. */
  readonly choices?: readonly string[];
}

/** The parts of a validator issue the formatter reads (Ajv's ErrorObject has them all). */
export interface ValidationIssue {
  readonly instancePath?: string;
  readonly keyword?: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** A table's own entry (a field or type named 'constructor' must not find Object's). */
function ownEntry<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Names a person reads for the fields Skald's forms and APIs take; others are humanised from their name. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  username: 'Username',
  email: 'E-mail address',
  password: 'Password',
  newPassword: 'New password',
  currentPassword: 'Current password',
  name: 'Server name',
  newName: 'Server name',
  serverId: 'Server',
  userId: 'User',
  backupId: 'Backup',
  deadLetterId: 'Dead letter',
  id: 'ID',
  url: 'URL',
  platform: 'Platform',
  chat_id: 'Chat ID',
  event_type: 'Event type',
  log_level: 'Log level',
  level: 'Level',
  resource: 'Resource',
  type: 'Type',
  types: 'Log types',
  role: 'Role',
  tier: 'Plan',
  code: '2FA code',
  token: 'Code',
  days: 'Days',
  interval_hours: 'Interval',
  db_host: 'Database host',
  db_port: 'Database port',
  db_user: 'Database user',
  db_pass_enc: 'Database password',
  db_name: 'Database name',
  bg_color: 'Background colour',
  text_color: 'Text colour',
  page: 'Page',
  limit: 'Page size',
  search: 'Search',
  dateFrom: 'From date',
  dateTo: 'To date',
  from: 'From date',
  to: 'To date',
  timeFrom: 'From time',
  timeTo: 'To time',
  timeZone: 'Time zone',
  message: 'Message',
  metadata: 'Metadata',
  active: 'Active',
  suspended: 'Suspended',
  logIds: 'Chosen logs',
};

/** Words kept in capitals when a field name is humanised (`apiKey` -> 'API key'). */
const ACRONYMS: Readonly<Record<string, string>> = { id: 'ID', api: 'API', url: 'URL', ip: 'IP', db: 'database', '2fa': '2FA' };

function humanise(field: string): string {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter((word) => word !== '')
    .map((word) => {
      const lower = word.toLowerCase();
      return ownEntry(ACRONYMS, lower) ?? lower;
    });
  if (words.length === 0) return 'This field';
  const [first = '', ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}

/** The name a person reads for a field ('db_host' -> 'Database host', 'maxBackups' -> 'Max backups'). */
export function fieldLabel(field: string): string {
  if (field === '') return 'The request';
  return ownEntry(FIELD_LABELS, field) ?? humanise(field);
}

const EMAIL_INVALID = 'Enter a valid e-mail address.';
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

type Sentence = string | ((problem: FieldProblem) => string);
/** Per field, a sentence for one rule, or for `any` rule the field breaks. */
type FieldSentences = Partial<Record<ValidationRule | 'any', Sentence>>;

/** Saved searches (POST /saved-searches and the /logs menu's form): the name is trimmed first. */
export const SAVED_SEARCH_NAME_REQUIRED = 'Give the search a name.';
export const SAVED_SEARCH_NAME_TOO_LONG = `A search name is at most ${SAVED_SEARCH_LIMITS.maxNameLength} characters.`;
export const SAVED_SEARCH_NAME_TAKEN = 'A saved search of this server already has this name.';
export const SAVED_SEARCH_NO_FILTER = 'Set at least one filter (search, type, level, resource or a date) to save a search.';
export const SAVED_SEARCH_DATES_REVERSED = 'The From date must not be after the To date.';
export const SAVED_SEARCHES_FULL = `This server already has ${SAVED_SEARCH_LIMITS.maxPerServer} saved searches: delete one to save another.`;

/** The context around a log: any bad count of lines on one side gets the whole rule. */
function contextLines(side: 'before' | 'after'): FieldSentences {
  const sentence = `The number of logs ${side} must be a whole number from 0 to ${MAX_CONTEXT_LINES}.`;
  return { minimum: sentence, maximum: sentence, type: sentence };
}

/**
 * The sentences of fields that say more than the general rule would: the spec's texts first, then the
 * forms' own fields. Only the rules listed here differ; every other rule takes the general sentence.
 */
const FIELD_SENTENCES: Readonly<Record<string, FieldSentences>> = {
  username: {
    required: 'Please enter your username.',
    pattern: 'Username may only contain letters, digits, dots (.), dashes (-) and underscores (_).',
  },
  email: { required: 'Please enter an e-mail address.', minLength: EMAIL_INVALID, pattern: EMAIL_INVALID, format: EMAIL_INVALID },
  password: { required: 'Please enter your password.' },
  newPassword: { required: 'Please enter a new password.' },
  currentPassword: { required: 'Please enter your current password.' },
  // docs/spec/part-2.txt section 5: create server (and the rename dialog, which checks the same name).
  name: { required: 'Give the server a name!' },
  newName: { required: 'Give the server a name!' },
  url: { required: 'Please enter the webhook URL.', format: 'Enter a full URL starting with https://.' },
  platform: { required: 'Choose a platform from the list.', choice: 'Choose a platform from the list.' },
  role: { required: 'Choose a role from the list.', choice: 'Choose a role from the list.' },
  tier: { required: 'Choose a plan from the list.', choice: 'Choose a plan from the list.' },
  log_level: { choice: 'Choose a log level from the list.' },
  // docs/spec/part-1.txt section 5 (the 2FA sign-in code) and docs/spec/part-2.txt section 5 (delete logs, custom export).
  code: { any: 'Please enter the complete 6-digit code' },
  days: { any: 'Insert a valid amount of days (0 or more)' },
  types: { required: 'Select at least one log type!', minItems: 'Select at least one log type!' },
  // GET /logs/{id}/context (the player timeline's `before` is a cursor text: these rules never apply to it).
  before: contextLines('before'),
  after: contextLines('after'),
  // POST /cases: the logs a case is opened from.
  logIds: { required: CASE_NO_LOGS },
  interval_hours: {
    minimum: (p) => `The interval must be at least ${plural(p.limit ?? 1, 'hour', 'hours')}.`,
    maximum: (p) => `The interval must be at most ${plural(p.limit ?? 1, 'hour', 'hours')}.`,
  },
};

const TYPE_SENTENCES: Readonly<Record<string, (label: string) => string>> = {
  integer: (label) => `${label} must be a whole number.`,
  number: (label) => `${label} must be a number.`,
  string: (label) => `${label} must be text.`,
  boolean: (label) => `${label} must be true or false.`,
  array: (label) => `${label} must be a list.`,
  object: (label) => `${label} must be a JSON object.`,
  null: (label) => `${label} must be empty.`,
};

const FORMAT_SENTENCES: Readonly<Record<string, (label: string) => string>> = {
  email: () => EMAIL_INVALID,
  'date-time': (label) => `${label} must be a date and time such as 2025-03-10T14:00:00Z.`,
  date: (label) => `${label} must be a date such as 2025-03-10.`,
  uri: (label) => `${label} must be a full URL such as https://example.com.`,
};

function generalSentence(problem: FieldProblem, label: string): string {
  const n = problem.limit ?? 0;
  switch (problem.rule) {
    case 'required':
      return `${label} is required.`;
    case 'minLength':
      return `${label} must be at least ${plural(n, 'character', 'characters')}.`;
    case 'maxLength':
      return `${label} must be at most ${plural(n, 'character', 'characters')}.`;
    case 'minimum':
      return problem.exclusive ? `${label} must be more than ${n}.` : `${label} must be at least ${n}.`;
    case 'maximum':
      return problem.exclusive ? `${label} must be less than ${n}.` : `${label} must be at most ${n}.`;
    case 'minItems':
      return `${label} must have at least ${plural(n, 'entry', 'entries')}.`;
    case 'maxItems':
      return `${label} must have at most ${plural(n, 'entry', 'entries')}.`;
    case 'choice':
      return problem.choices && problem.choices.length > 0 ? `${label} must be one of: ${problem.choices.join(', ')}.` : `${label} is not one of the offered values.`;
    case 'type':
      if (problem.field === '' && problem.type === 'object') return 'The request body must be a JSON object.';
      return (ownEntry(TYPE_SENTENCES, problem.type) ?? ((l: string) => `${l} has the wrong type of value.`))(label);
    case 'format':
      return (ownEntry(FORMAT_SENTENCES, problem.format) ?? ((l: string) => `${l} is not valid.`))(label);
    case 'unknownField':
      return `Unknown field: ${problem.path ?? problem.field}.`;
    case 'pattern':
    case 'invalid':
      return `${label} is not valid.`;
  }
}

/**
 * The sentence for a field that broke a rule, e.g. { field: 'username', rule: 'minLength', limit: 3 } ->
 * 'Username must be at least 3 characters.'. A minimum length of 1 is the 'required' rule: an empty text
 * is a missing one to whoever typed it.
 */
export function validationSentence(problem: FieldProblem): string {
  const rule: ValidationRule = problem.rule === 'minLength' && (problem.limit ?? 0) <= 1 ? 'required' : problem.rule;
  const asked = rule === problem.rule ? problem : { ...problem, rule };
  // An unknown field is named as sent: its own name is all a developer needs, and it has no label.
  if (rule !== 'unknownField') {
    const own = ownEntry(FIELD_SENTENCES, asked.field) ?? {};
    const sentence = own[rule] ?? own.any;
    if (sentence !== undefined) return typeof sentence === 'string' ? sentence : sentence(asked);
  }
  return generalSentence(asked, fieldLabel(asked.field));
}

/** '/settings/0/colour' -> ['settings', 0, 'colour'] (JSON pointer, with ~1 and ~0 unescaped). */
function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** ['settings', 'colour'] -> 'settings.colour'; [1, 'level'] -> '[1].level' (ingestion's way of naming a field). */
function pathText(segments: readonly (string | number)[]): string {
  return segments.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    return text === '' ? segment : `${text}.${segment}`;
  }, '');
}

/** The last named segment: the field the rule is about (`level` of `[3].level`). */
function fieldOf(segments: readonly (string | number)[]): string {
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    if (typeof segment === 'string') return segment;
  }
  return '';
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One issue, read as a rule about its field (the branches of a union are resolved by the caller). */
function problemOfIssue(issue: ValidationIssue): FieldProblem {
  const segments = pointerSegments(issue.instancePath ?? '');
  const params = issue.params ?? {};
  const missing = params['missingProperty'];
  if (typeof missing === 'string') return { field: missing, rule: 'required', path: pathText([...segments, missing]) };
  const extra = params['additionalProperty'];
  if (typeof extra === 'string') return { field: extra, rule: 'unknownField', path: pathText([...segments, extra]) };
  const base = { field: fieldOf(segments), path: pathText(segments) };
  switch (issue.keyword) {
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return { ...base, rule: issue.keyword, limit: num(params['limit']) };
    case 'minimum':
    case 'maximum':
      return { ...base, rule: issue.keyword, limit: num(params['limit']) };
    case 'exclusiveMinimum':
      return { ...base, rule: 'minimum', limit: num(params['limit']), exclusive: true };
    case 'exclusiveMaximum':
      return { ...base, rule: 'maximum', limit: num(params['limit']), exclusive: true };
    case 'pattern':
      return { ...base, rule: 'pattern' };
    case 'format':
      return { ...base, rule: 'format', format: textOf(params['format']) };
    case 'type': {
      const expected = params['type'];
      const first = Array.isArray(expected) ? expected[0] : typeof expected === 'string' ? expected.split(',')[0] : undefined;
      return { ...base, rule: 'type', type: typeof first === 'string' ? first : undefined };
    }
    case 'const':
      return { ...base, rule: 'choice', choices: 'allowedValue' in params ? [textOf(params['allowedValue'])] : [] };
    case 'enum': {
      const allowed = params['allowedValues'];
      return { ...base, rule: 'choice', choices: Array.isArray(allowed) ? allowed.map(textOf) : [] };
    }
    default:
      return { ...base, rule: 'invalid' };
  }
}

const UNION_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'oneOf']);
const CHOICE_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum']);

/**
 * The first refused field of a validator's issue list, read as a rule. A union (anyOf: a choice of literals,
 * or a text that may also be null) reports one issue per branch and then the union itself: a union of
 * literals is a choice among all of them; otherwise the most telling branch speaks (a length or pattern
 * over a bare type mismatch, and the type of the first branch over 'must be null').
 */
export function problemOfIssues(issues: readonly ValidationIssue[]): FieldProblem | null {
  const first = issues[0];
  if (!first) return null;
  const at = first.instancePath ?? '';
  const unionIndex = issues.findIndex((issue) => UNION_KEYWORDS.has(issue.keyword ?? '') && (issue.instancePath ?? '') === at);
  if (unionIndex <= 0) return problemOfIssue(first);
  const branches = issues.slice(0, unionIndex).filter((issue) => (issue.instancePath ?? '') === at);
  if (branches.every((issue) => CHOICE_KEYWORDS.has(issue.keyword ?? ''))) {
    const choices = branches.flatMap((issue) => problemOfIssue(issue).choices ?? []);
    return { ...problemOfIssue(first), rule: 'choice', choices: [...new Set(choices)] };
  }
  const telling = branches.find((issue) => issue.keyword !== 'type' && !CHOICE_KEYWORDS.has(issue.keyword ?? '')) ?? branches[0] ?? first;
  return problemOfIssue(telling);
}

/** The sentence for a validator's issue list (null for an empty list). */
export function describeValidationIssues(issues: readonly ValidationIssue[]): string | null {
  const problem = problemOfIssues(issues);
  return problem === null ? null : validationSentence(problem);
}

/**
 * A validator's own wording, which a screen must never show (the server answers sentences from this
 * module; this is the web's guard against an answer that still carries one).
 */
const RAW_VALIDATOR_TEXT = /must NOT |must be equal to (constant|one of the allowed values)|must match (pattern|format|a schema)|must have required property|^\S+ is (required|not allowed)$|^\S+ must be (string|integer|number|boolean|object|array|null)$|must be [<>]=? ?-?\d/;

export function isRawValidatorText(text: string): boolean {
  return RAW_VALIDATOR_TEXT.test(text);
}
