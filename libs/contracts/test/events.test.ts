import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { Compile } from 'typebox/compile';
import { AuditRecordedEvent } from '../src/events/audit.ts';
import { EVENT_TYPE_HEADER, defineEvent, eventMessage, readEnvelope, validateEventData } from '../src/events/framework.ts';
import { LogsBatchAcceptedEvent } from '../src/events/logs.ts';

// Delivery through a real bus (routing, dead-lettering, retries) is tested next to the memory adapter in
// libs/adapters/test/event-bus.events-framework.test.ts: importing adapters here would create a
// contracts -> adapters -> contracts project cycle that the module-boundary lint rejects.

const TOPIC = 'test.things.v1';
const ThingCreated = defineEvent({
  name: 'thing.created',
  version: 1,
  topic: TOPIC,
  schema: Type.Object({ thingId: Type.String({ minLength: 1 }), size: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
});

describe('defineEvent', () => {
  it('derives the versioned type and validates data with a path in the reason', () => {
    expect(ThingCreated.type).toBe('thing.created.v1');
    expect(ThingCreated.validate({ thingId: 't1', size: 3 })).toEqual({ ok: true, data: { thingId: 't1', size: 3 } });
    const bad = ThingCreated.validate({ thingId: 't1', size: -1 });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.reason).toMatch(/^thing\.created\.v1: \/size /);
    expect(ThingCreated.validate({ thingId: 't1', size: 1, extra: true }).ok).toBe(false);
  });

  it('refuses malformed names and versions', () => {
    expect(() => defineEvent({ name: 'NoDots', version: 1, topic: TOPIC, schema: Type.Object({}) })).toThrow();
    expect(() => defineEvent({ name: 'a.b', version: 0, topic: TOPIC, schema: Type.Object({}) })).toThrow();
  });

  it('builds the envelope and header, and refuses invalid data at the producer', () => {
    const message = eventMessage(ThingCreated, 'server-1', { thingId: 't1', size: 2 }, {
      id: 'evt-1', occurredAt: new Date('2026-01-02T03:04:05.000Z'), headers: { 'x-trace': 'abc' },
    });
    expect(message).toEqual({
      topic: TOPIC,
      key: 'server-1',
      id: 'evt-1',
      headers: { 'x-trace': 'abc', [EVENT_TYPE_HEADER]: 'thing.created.v1' },
      payload: { type: 'thing.created', version: 1, id: 'evt-1', occurredAt: '2026-01-02T03:04:05.000Z', data: { thingId: 't1', size: 2 } },
    });
    // @ts-expect-error size must be a number: the static type comes from the schema.
    expect(() => eventMessage(ThingCreated, 'k', { thingId: 't1', size: 'big' })).toThrow(/refusing to publish/);
  });
});

describe('readEnvelope', () => {
  const base = { id: 'm', topic: TOPIC, key: 'k', attempt: 1 };
  it('reads a well-formed envelope and its versioned type', () => {
    const message = eventMessage(ThingCreated, 'k', { thingId: 't', size: 1 }, { id: 'e1' });
    const { type, envelope } = readEnvelope({ ...base, payload: message.payload, headers: message.headers ?? {} });
    expect(type).toBe('thing.created.v1');
    expect(envelope.data).toEqual({ thingId: 't', size: 1 });
  });
  it('refuses broken envelopes and a header that contradicts the envelope', () => {
    expect(() => readEnvelope({ ...base, payload: [1], headers: {} })).toThrow(/not an envelope/);
    expect(() => readEnvelope({ ...base, payload: { type: 'a.b', version: 1, id: 'x', occurredAt: 'now' }, headers: {} })).toThrow(/lacks data/);
    const message = eventMessage(ThingCreated, 'k', { thingId: 't', size: 1 });
    expect(() => readEnvelope({ ...base, payload: message.payload, headers: { [EVENT_TYPE_HEADER]: 'thing.created.v2' } })).toThrow(
      /does not match/,
    );
  });
});

describe('identity events', () => {
  it('are framework definitions keyed by the server, else the user', async () => {
    const { ApiKeyRotatedEvent, UserSiteRoleChangedEvent, IDENTITY_EVENTS, identityMessage } = await import('../src/events/identity.ts');
    expect(ApiKeyRotatedEvent.type).toBe('apikey.rotated.v1');
    expect(new Set(IDENTITY_EVENTS.map((e) => e.type)).size).toBe(IDENTITY_EVENTS.length);
    const hash = 'a'.repeat(64);
    const rotated = identityMessage(ApiKeyRotatedEvent, { serverId: 's1', keyHash: hash, previousKeyHash: null });
    expect(rotated).toMatchObject({ topic: 'skald.identity.v1', key: 's1', headers: { [EVENT_TYPE_HEADER]: 'apikey.rotated.v1' } });
    expect(identityMessage(UserSiteRoleChangedEvent, { userId: 'u1', role: 'admin' }).key).toBe('u1');
    expect(() => identityMessage(ApiKeyRotatedEvent, { serverId: 's1', keyHash: 'not-hex', previousKeyHash: null })).toThrow(/refusing to publish/);
  });

  it('hash API keys one way for the writer (auth) and the reader (ingestion)', async () => {
    const { hashApiKey } = await import('../src/api-key.ts');
    expect(hashApiKey('sk_test')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('sk_test')).toBe(hashApiKey('sk_test'));
    expect(hashApiKey('sk_test')).not.toBe(hashApiKey('sk_tesT'));
  });
});

describe('free-form objects in event data (AnyObject)', () => {
  const log = (metadata: unknown) => ({
    id: '0190a000-0000-7000-8000-000000000000', createdAt: 1, level: 'info', type: 't', resource: 'r', message: 'm',
    metadata, logType: 'text', imageKey: null, thumbKey: null,
  });
  it('takes any JSON object or null as a log’s metadata, and refuses arrays, strings and numbers', () => {
    const valid = (metadata: unknown) => validateEventData(LogsBatchAcceptedEvent, { serverId: 'srv', logs: [log(metadata)] }).ok;
    expect(valid({ a: 1, nested: { b: [1, 'x', null] }, '': true })).toBe(true);
    expect(valid({})).toBe(true);
    expect(valid(null)).toBe(true);
    expect(valid(JSON.parse('{"__proto__x":1,"constructor":2}'))).toBe(true);
    for (const refused of [[1, 2], 'text', 42, true]) expect(valid(refused)).toBe(false);
  });
  it('takes a log with exactly its ten properties, refuses one more or one fewer (a closed object, checked without an array per log)', () => {
    const event = (logs: unknown[]) => validateEventData(LogsBatchAcceptedEvent, { serverId: 'srv', logs });
    expect(event([log(null)]).ok).toBe(true);
    const extra = event([log(null), { ...log(null), extra: 1 }]);
    expect(extra.ok).toBe(false);
    if (!extra.ok) expect(extra.reason).toContain('/logs/1');
    const { thumbKey: _dropped, ...missing } = log(null);
    expect(event([missing]).ok).toBe(false);
    // Same count, one name swapped for another: still refused (every required name must be there).
    const { imageKey: _swapped, ...nine } = log(null);
    expect(event([{ ...nine, other: null }]).ok).toBe(false);
    expect(event([Object.freeze(log(null))]).ok).toBe(true);
  });
  it('takes a log with or without its optional receivedAt, and still refuses any other property beside it', () => {
    const event = (logs: unknown[]) => validateEventData(LogsBatchAcceptedEvent, { serverId: 'srv', logs });
    // Events published before receivedAt existed, and logs received at their own time, carry none.
    expect(event([log(null), { ...log(null), receivedAt: 5 }]).ok).toBe(true);
    expect(event([JSON.parse(JSON.stringify({ ...log(null), receivedAt: 5 }))]).ok).toBe(true);
    expect(event([{ ...log(null), receivedAt: -1 }]).ok).toBe(false);
    expect(event([{ ...log(null), receivedAt: 1.5 }]).ok).toBe(false);
    expect(event([{ ...log(null), receivedAt: '5' }]).ok).toBe(false);
    // One more property than the optional one present: refused, whether receivedAt is there or not.
    expect(event([{ ...log(null), receivedAt: 5, extra: 1 }]).ok).toBe(false);
    expect(event([{ ...log(null), other: 5 }]).ok).toBe(false);
    // A required name swapped for the optional one: the count matches, the required check refuses it.
    const { thumbKey: _swapped, ...withoutThumb } = log(null);
    expect(event([{ ...withoutThumb, receivedAt: 5 }]).ok).toBe(false);
    // An optional key holding undefined (no JSON carries one) counts as a key that should not be there.
    expect(event([{ ...log(null), receivedAt: undefined }]).ok).toBe(false);
    expect(event([Object.freeze({ ...log(null), receivedAt: 5 })]).ok).toBe(true);
  });
  it('takes a text or a JSON object as an audit entry’s details, nothing else', () => {
    const check = Compile(AuditRecordedEvent.schema.properties.details);
    expect(check.Check({ from: 'a', to: 'b' })).toBe(true);
    expect(check.Check('changed the tier')).toBe(true);
    expect(check.Check([1])).toBe(false);
    expect(check.Check(null)).toBe(false);
  });
});
