import { describe, expect, it } from 'vitest';
import {
  describeValidationIssues,
  fieldLabel,
  isRawValidatorText,
  problemOfIssues,
  validationSentence,
  type ValidationIssue,
} from '../src/api/validation-messages.ts';

/** Ajv issues as Fastify hands them over (the shapes were read from a real route's refusals). */
const issue = (instancePath: string, keyword: string, params: Record<string, unknown> = {}): ValidationIssue => ({ instancePath, keyword, params });
const say = (...issues: ValidationIssue[]) => describeValidationIssues(issues);

describe('one sentence per field and rule', () => {
  it('required: the form field asks for itself, other fields say they are required', () => {
    expect(say(issue('', 'required', { missingProperty: 'username' }))).toBe('Please enter your username.');
    expect(say(issue('', 'required', { missingProperty: 'email' }))).toBe('Please enter an e-mail address.');
    expect(say(issue('', 'required', { missingProperty: 'password' }))).toBe('Please enter your password.');
    expect(say(issue('', 'required', { missingProperty: 'newPassword' }))).toBe('Please enter a new password.');
    expect(say(issue('', 'required', { missingProperty: 'currentPassword' }))).toBe('Please enter your current password.');
    expect(say(issue('', 'required', { missingProperty: 'interval_hours' }))).toBe('Interval is required.');
    expect(say(issue('/settings', 'required', { missingProperty: 'db_host' }))).toBe('Database host is required.');
  });

  it('minLength: at least n characters; a minimum of 1 is an empty field, so it asks for it', () => {
    expect(say(issue('/username', 'minLength', { limit: 3 }))).toBe('Username must be at least 3 characters.');
    expect(say(issue('/newPassword', 'minLength', { limit: 8 }))).toBe('New password must be at least 8 characters.');
    expect(say(issue('/password', 'minLength', { limit: 1 }))).toBe('Please enter your password.');
    expect(say(issue('/serverId', 'minLength', { limit: 1 }))).toBe('Server is required.');
    expect(say(issue('/email', 'minLength', { limit: 3 }))).toBe('Enter a valid e-mail address.');
  });

  it('maxLength: at most n characters, singular for 1', () => {
    expect(say(issue('/name', 'maxLength', { limit: 64 }))).toBe('Server name must be at most 64 characters.');
    expect(say(issue('/db_host', 'maxLength', { limit: 253 }))).toBe('Database host must be at most 253 characters.');
    expect(validationSentence({ field: 'flag', rule: 'maxLength', limit: 1 })).toBe('Flag must be at most 1 character.');
  });

  it('pattern and format: the field says what it expects', () => {
    expect(say(issue('/username', 'pattern', { pattern: '^[A-Za-z0-9_.-]+$' }))).toBe('Username may only contain letters, digits, dots (.), dashes (-) and underscores (_).');
    expect(say(issue('/email', 'pattern', { pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' }))).toBe('Enter a valid e-mail address.');
    expect(say(issue('/contact', 'format', { format: 'email' }))).toBe('Enter a valid e-mail address.');
    expect(say(issue('/when', 'format', { format: 'date-time' }))).toBe('When must be a date and time such as 2025-03-10T14:00:00Z.');
    expect(say(issue('/dateFrom', 'format', { format: 'date' }))).toBe('From date must be a date such as 2025-03-10.');
    expect(say(issue('/url', 'format', { format: 'uri' }))).toBe('Enter a full URL starting with https://.');
    expect(say(issue('/id', 'pattern', { pattern: '^[a-z]+$' }))).toBe('ID is not valid.');
  });

  it('a choice (a union of literals, an enum, a const): the known selects ask to choose, others list the values', () => {
    const platform = ['discord', 'slack', 'telegram'].map((allowedValue, i) => ({ instancePath: '/platform', keyword: 'const', params: { allowedValue }, schemaPath: `#/anyOf/${i}` }));
    expect(say(...platform, issue('/platform', 'anyOf'))).toBe('Choose a platform from the list.');
    expect(say(issue('/role', 'const', { allowedValue: 'admin' }), issue('/role', 'const', { allowedValue: 'user' }), issue('/role', 'anyOf'))).toBe('Choose a role from the list.');
    expect(say(issue('/tier', 'enum', { allowedValues: ['free', 'lite'] }))).toBe('Choose a plan from the list.');
    expect(problemOfIssues([issue('/colour', 'const', { allowedValue: 'red' }), issue('/colour', 'const', { allowedValue: 'blue' }), issue('/colour', 'anyOf')])).toMatchObject({ rule: 'choice', choices: ['red', 'blue'] });
    expect(say(issue('/colour', 'const', { allowedValue: 'red' }), issue('/colour', 'const', { allowedValue: 'blue' }), issue('/colour', 'anyOf'))).toBe('Colour must be one of: red, blue.');
    expect(say(issue('/colour', 'enum', {}))).toBe('Colour is not one of the offered values.');
  });

  it('a text that may be null: the text branch speaks, not "must be null"', () => {
    const tooLong = [issue('/chat_id', 'maxLength', { limit: 256 }), issue('/chat_id', 'type', { type: 'null' }), issue('/chat_id', 'anyOf')];
    expect(say(...tooLong)).toBe('Chat ID must be at most 256 characters.');
    const wrongType = [issue('/resource', 'type', { type: 'string' }), issue('/resource', 'type', { type: 'null' }), issue('/resource', 'anyOf')];
    expect(say(...wrongType)).toBe('Resource must be text.');
  });

  it('type: each JSON type in words; the body itself must be an object', () => {
    expect(say(issue('/count', 'type', { type: 'integer' }))).toBe('Count must be a whole number.');
    expect(say(issue('/interval_hours', 'type', { type: 'number' }))).toBe('Interval must be a number.');
    expect(say(issue('/name', 'type', { type: 'string' }))).toBe('Server name must be text.');
    expect(say(issue('/enabled', 'type', { type: 'boolean' }))).toBe('Enabled must be true or false.');
    expect(say(issue('/types', 'type', { type: 'array' }))).toBe('Log types must be a list.');
    expect(say(issue('/settings', 'type', { type: 'object' }))).toBe('Settings must be a JSON object.');
    expect(say(issue('/note', 'type', { type: ['string', 'null'] }))).toBe('Note must be text.');
    expect(say(issue('', 'type', { type: 'object' }))).toBe('The request body must be a JSON object.');
  });

  it('minimum and maximum, exclusive bounds included; the interval counts hours', () => {
    expect(say(issue('/interval_hours', 'minimum', { comparison: '>=', limit: 1 }))).toBe('The interval must be at least 1 hour.');
    expect(say(issue('/interval_hours', 'maximum', { comparison: '<=', limit: 8760 }))).toBe('The interval must be at most 8760 hours.');
    expect(say(issue('/db_port', 'minimum', { limit: 1 }))).toBe('Database port must be at least 1.');
    expect(say(issue('/db_port', 'maximum', { limit: 65535 }))).toBe('Database port must be at most 65535.');
    expect(say(issue('/page', 'exclusiveMinimum', { limit: 0 }))).toBe('Page must be more than 0.');
    expect(say(issue('/ratio', 'exclusiveMaximum', { limit: 1 }))).toBe('Ratio must be less than 1.');
  });

  it('minItems and maxItems; the custom export keeps the spec text', () => {
    expect(say(issue('/types', 'minItems', { limit: 1 }))).toBe('Select at least one log type!');
    expect(say(issue('/tags', 'minItems', { limit: 2 }))).toBe('Tags must have at least 2 entries.');
    expect(say(issue('/tags', 'maxItems', { limit: 1 }))).toBe('Tags must have at most 1 entry.');
  });

  it('an unknown field is named with its path, nested and in arrays', () => {
    expect(say(issue('', 'additionalProperties', { additionalProperty: 'foo' }))).toBe('Unknown field: foo.');
    expect(say(issue('/settings', 'additionalProperties', { additionalProperty: 'owner' }))).toBe('Unknown field: settings.owner.');
    expect(say(issue('/1', 'additionalProperties', { additionalProperty: 'lvl' }))).toBe('Unknown field: [1].lvl.');
  });

  it("the spec's own texts win for every rule of their field", () => {
    expect(say(issue('/days', 'maxLength', { limit: 32 }))).toBe('Insert a valid amount of days (0 or more)');
    expect(say(issue('', 'required', { missingProperty: 'days' }))).toBe('Insert a valid amount of days (0 or more)');
    expect(say(issue('/code', 'maxLength', { limit: 16 }))).toBe('Please enter the complete 6-digit code');
    expect(say(issue('/name', 'minLength', { limit: 1 }))).toBe('Give the server a name!');
    expect(say(issue('/newName', 'minLength', { limit: 1 }))).toBe('Give the server a name!');
  });

  it('a keyword it does not know still makes a sentence; no issue makes none', () => {
    expect(say(issue('/tags', 'uniqueItems', { i: 0, j: 1 }))).toBe('Tags is not valid.');
    expect(describeValidationIssues([])).toBeNull();
  });
});

describe('field labels', () => {
  it('names the known fields and humanises the rest', () => {
    expect(fieldLabel('db_host')).toBe('Database host');
    expect(fieldLabel('newName')).toBe('Server name');
    expect(fieldLabel('maxBackups')).toBe('Max backups');
    expect(fieldLabel('apiKey')).toBe('API key');
    expect(fieldLabel('last_event_id')).toBe('Last event ID');
    expect(fieldLabel('')).toBe('The request');
  });

  it('does not read inherited names as labels', () => {
    expect(fieldLabel('constructor')).toBe('Constructor');
    expect(validationSentence({ field: 'toString', rule: 'required' })).toBe('To string is required.');
  });
});

describe('no sentence is a validator message', () => {
  const everyRule = [
    issue('', 'required', { missingProperty: 'x' }),
    issue('/x', 'minLength', { limit: 3 }),
    issue('/x', 'maxLength', { limit: 3 }),
    issue('/x', 'pattern', { pattern: 'a' }),
    issue('/x', 'format', { format: 'ipv4' }),
    issue('/x', 'const', { allowedValue: 'a' }),
    issue('/x', 'type', { type: 'string' }),
    issue('/x', 'minimum', { limit: 1 }),
    issue('/x', 'maximum', { limit: 1 }),
    issue('', 'additionalProperties', { additionalProperty: 'x' }),
  ];
  it('each starts with a capital or names the field, and ends with a stop', () => {
    for (const one of everyRule) {
      const text = say(one)!;
      expect(isRawValidatorText(text), text).toBe(false);
      expect(text, text).toMatch(/^[A-Z].*[.!]$/);
    }
  });

  it("recognises the validator's own wording", () => {
    for (const raw of ['username must NOT have fewer than 3 characters', 'platform must be equal to constant', 'username must match pattern "^[a-z]+$"', 'password is required', 'role is not allowed', 'name must be string', 'interval_hours must be >= 1', "must have required property 'x'"]) {
      expect(isRawValidatorText(raw), raw).toBe(true);
    }
    for (const human of ['That server name is already taken.', 'The destination 10.0.0.1 is not allowed: it is a private network address.', 'Telegram requires a chat_id.', 'Login failed']) {
      expect(isRawValidatorText(human), human).toBe(false);
    }
  });
});
