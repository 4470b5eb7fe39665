/**
 * Event contracts framework: one TypeBox schema per event gives the TypeScript type (Static) and
 * the runtime validator; a versioned name travels in the `event-type` header (`server.created.v1`)
 * and the payload is the envelope `{ type, version, id, occurredAt, data }`.
 *
 * Consumers use subscribeEvents(): it routes by event type, validates, and turns anything that can
 * never succeed (invalid data, an unknown version of an event it handles, a broken envelope) into a
 * PoisonMessageError so the bus dead-letters it and moves on. Event types it has no handler for
 * are skipped: several producers share a topic.
 *
 * Plain descriptors `{ name, version, topic, schema }` (as in logs.ts / identity.ts) work everywhere
 * a definition does; defineEvent() only adds the derived `type` and validation helpers.
 */
import { randomUUID } from 'node:crypto';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Validator } from 'typebox/compile';
import { PoisonMessageError } from '@skald/ports';
import type { BusMessage, EventBus, PublishInput, Subscription } from '@skald/ports';

export const EVENT_TYPE_HEADER = 'event-type';

export interface EventDescriptor<S extends TSchema = TSchema> {
  readonly name: string;
  readonly version: number;
  readonly topic: string;
  readonly schema: S;
  /**
   * Brings data published under a former vocabulary of this same version to today's (a renamed value), so a
   * history topic's old events still read. Applied to consumed data before validation; never to published
   * data, which must be today's. Returns a new value: consumed payloads may be frozen.
   */
  readonly upgrade?: (data: unknown) => unknown;
}

export type EventData<E extends EventDescriptor> = Static<E['schema']>;

export interface EventEnvelope<T = unknown> {
  /** The event name without version, e.g. `server.created`. */
  readonly type: string;
  readonly version: number;
  /** Same as the bus message id unless the publisher chose otherwise. */
  readonly id: string;
  /** ISO 8601 time the event happened. */
  readonly occurredAt: string;
  readonly data: T;
}

export type ValidationResult<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly reason: string };

export interface EventDefinition<N extends string, V extends number, S extends TSchema> extends EventDescriptor<S> {
  readonly name: N;
  readonly version: V;
  /** Header value `<name>.v<version>`. */
  readonly type: `${N}.v${V}`;
  readonly validate: (data: unknown) => ValidationResult<Static<S>>;
}

const validators = new WeakMap<TSchema, Validator>();

function validatorOf(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}

export function eventTypeOf(event: Pick<EventDescriptor, 'name' | 'version'>): string {
  return `${event.name}.v${event.version}`;
}

/** Validates consumed data (upgraded first when the event says how) against the event's schema; the reason names the first failing path. */
export function validateEventData<E extends EventDescriptor>(event: E, data: unknown): ValidationResult<EventData<E>> {
  return checkEventData(event, event.upgrade === undefined ? data : event.upgrade(data));
}

/** Validates data as it is, without an upgrade: what a producer publishes must be today's vocabulary. */
function checkEventData<E extends EventDescriptor>(event: E, data: unknown): ValidationResult<EventData<E>> {
  const validator = validatorOf(event.schema);
  // Check() proves the shape; Static<> of the descriptor's schema is that same shape.
  if (validator.Check(data)) return { ok: true, data: data as EventData<E> };
  const first = validator.Errors(data)[0];
  const where = first ? `${first.instancePath || '/'} ${first.message}` : 'invalid data';
  return { ok: false, reason: `${eventTypeOf(event)}: ${where}` };
}

export function defineEvent<const N extends string, const V extends number, S extends TSchema>(spec: {
  readonly name: N;
  readonly version: V;
  readonly topic: string;
  readonly schema: S;
  readonly upgrade?: (data: unknown) => unknown;
}): EventDefinition<N, V, S> {
  if (!/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(spec.name)) {
    throw new Error(`event name must be dotted lowercase words, got ${JSON.stringify(spec.name)}`);
  }
  if (!Number.isInteger(spec.version) || spec.version < 1) throw new Error(`event version must be an integer >= 1`);
  validatorOf(spec.schema);
  const definition: EventDefinition<N, V, S> = {
    ...spec,
    type: `${spec.name}.v${spec.version}`,
    validate: (data) => validateEventData(spec, data),
  };
  return Object.freeze(definition);
}

export interface EventMessageOptions {
  /** Message and envelope id. Default: a random UUID. */
  readonly id?: string;
  /** Default: now. */
  readonly occurredAt?: Date;
  /** Extra headers (the event-type header is always set by the framework). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Validate data before publishing (default true): a producer bug fails loudly at its source. */
  readonly validate?: boolean;
}

/** Builds the bus message for an event without publishing it (to publish several at once). */
export function eventMessage<E extends EventDescriptor>(
  event: E,
  key: string,
  data: EventData<E>,
  options: EventMessageOptions = {},
): PublishInput {
  if (options.validate !== false) {
    const result = checkEventData(event, data);
    if (!result.ok) throw new TypeError(`refusing to publish invalid event ${result.reason}`);
  }
  const id = options.id ?? randomUUID();
  const envelope: EventEnvelope<EventData<E>> = {
    type: event.name,
    version: event.version,
    id,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    data,
  };
  return {
    topic: event.topic,
    key,
    id,
    headers: { ...options.headers, [EVENT_TYPE_HEADER]: eventTypeOf(event) },
    payload: envelope,
  };
}

/** Publishes one event; resolves with its id once the bus durably accepted it. */
export async function publishEvent<E extends EventDescriptor>(
  bus: EventBus,
  event: E,
  key: string,
  data: EventData<E>,
  options: EventMessageOptions = {},
): Promise<string> {
  const message = eventMessage(event, key, data, options);
  await bus.publish([message]);
  return message.id!;
}

export interface EventContext<T = unknown> {
  readonly envelope: EventEnvelope<T>;
  readonly message: BusMessage;
}

/** One validated event of a batch (onBatch). */
export interface EventItem<T = unknown> {
  readonly data: T;
  readonly context: EventContext<T>;
}

export interface EventHandler<E extends EventDescriptor = EventDescriptor> {
  readonly event: E;
  readonly handle: (data: EventData<E>, context: EventContext<EventData<E>>) => Promise<void>;
  /**
   * Optional: several events of this type at once, in delivery order (onBatch). Must do what `handle`
   * does for each of them; if it throws, the bus hands the same messages to `handle` one by one, so
   * what it did before failing may be done again (at least once, as ever).
   */
  readonly handleMany?: (items: readonly EventItem<EventData<E>>[]) => Promise<void>;
}

/** Type helper for handler lists: `handlers: [on(ServerCreatedEvent, async (data) => ...)]`. */
export function on<E extends EventDescriptor>(event: E, handle: EventHandler<E>['handle']): EventHandler<E> {
  return { event, handle };
}

/**
 * A handler that takes the events of one bus read together (EventBus batch delivery: one transaction
 * for many messages). A message that arrives alone, or again after a failed batch, comes as a batch of one.
 */
export function onBatch<E extends EventDescriptor>(
  event: E,
  handleMany: (items: readonly EventItem<EventData<E>>[]) => Promise<void>,
): EventHandler<E> {
  return { event, handle: (data, context) => handleMany([{ data, context }]), handleMany };
}

export interface SubscribeEventsOptions<T extends readonly EventDescriptor[]> {
  readonly group: string;
  readonly handlers: { readonly [K in keyof T]: EventHandler<T[K]> };
  readonly maxAttempts?: number;
  readonly retryDelayMs?: number;
}

/** Reads the envelope and event type of a message; throws PoisonMessageError when they are unusable. */
export function readEnvelope(message: BusMessage): { type: string; envelope: EventEnvelope } {
  const payload = message.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new PoisonMessageError('event payload is not an envelope object');
  }
  const fields = payload as Record<string, unknown>;
  const { type, version, id, occurredAt } = fields;
  if (typeof type !== 'string' || typeof version !== 'number' || typeof id !== 'string' || typeof occurredAt !== 'string') {
    throw new PoisonMessageError('event envelope lacks type, version, id or occurredAt');
  }
  if (!('data' in fields)) throw new PoisonMessageError('event envelope lacks data');
  const envelopeType = eventTypeOf({ name: type, version });
  const headerType = message.headers[EVENT_TYPE_HEADER];
  if (headerType !== undefined && headerType !== envelopeType) {
    throw new PoisonMessageError(`event-type header ${headerType} does not match envelope ${envelopeType}`);
  }
  return { type: envelopeType, envelope: { type, version, id, occurredAt, data: fields['data'] } };
}

export interface ObserveEventsOptions<T extends readonly EventDescriptor[]> {
  readonly handlers: { readonly [K in keyof T]: EventHandler<T[K]> };
  /** A message that is not a valid event of a handled type, or a handler failure (skipped: observers never retry). */
  readonly onError: (error: unknown, message: BusMessage) => void;
  /** Keys to follow, asked before a message is parsed (ObserveOptions.filter); default all. */
  readonly filter?: (key: string, topic: string) => boolean;
}

/**
 * The observer counterpart of subscribeEvents (EventBus.observe: every message from now on, to this
 * process alone, nothing committed): dispatches each event of a handled type to its handler after the
 * same checks; what fails them goes to onError instead of a dead-letter topic.
 */
export async function observeEvents<const T extends readonly EventDescriptor[]>(bus: EventBus, options: ObserveEventsOptions<T>): Promise<Subscription> {
  const byType = new Map<string, EventHandler>();
  for (const handler of options.handlers as readonly EventHandler[]) {
    const type = eventTypeOf(handler.event);
    if (byType.has(type)) throw new Error(`observeEvents: two handlers for ${type}`);
    byType.set(type, handler);
  }
  if (byType.size === 0) throw new Error('observeEvents: no handlers');
  const topics = [...new Set([...byType.values()].map((handler) => handler.event.topic))];
  return bus.observe({
    topics,
    onError: options.onError,
    ...(options.filter ? { filter: options.filter } : {}),
    handler: async (message) => {
      const headerType = message.headers[EVENT_TYPE_HEADER];
      // Other events (or versions) on a shared topic are not this observer's business.
      if (headerType !== undefined && !byType.has(headerType)) return;
      const { type, envelope } = readEnvelope(message);
      const handler = byType.get(type);
      if (!handler || handler.event.topic !== message.topic) return;
      const result = validateEventData(handler.event, envelope.data);
      if (!result.ok) throw new PoisonMessageError(result.reason);
      await handler.handle(result.data, { envelope: { ...envelope, data: result.data }, message });
    },
  });
}

/**
 * Subscribes a consumer group to the topics of its handlers and dispatches each event to the
 * handler of its type. Handler errors propagate, so the bus retries them (at least once).
 */
export async function subscribeEvents<const T extends readonly EventDescriptor[]>(
  bus: EventBus,
  options: SubscribeEventsOptions<T>,
): Promise<Subscription> {
  const byType = new Map<string, EventHandler>();
  const namesHandled = new Set<string>();
  for (const handler of options.handlers as readonly EventHandler[]) {
    const type = eventTypeOf(handler.event);
    if (byType.has(type)) throw new Error(`subscribeEvents: two handlers for ${type}`);
    byType.set(type, handler);
    namesHandled.add(handler.event.name);
  }
  if (byType.size === 0) throw new Error('subscribeEvents: no handlers');
  const topics = [...new Set([...byType.values()].map((handler) => handler.event.topic))];

  /** The handler and validated event of a message, null when it is not this group's business. */
  const decode = (message: BusMessage): { handler: EventHandler; item: EventItem } | null => {
    const headerType = message.headers[EVENT_TYPE_HEADER];
    // Cheap skip before parsing: most messages on a shared topic may be for other consumers.
    if (headerType !== undefined && !byType.has(headerType) && !namesHandled.has(headerType.replace(/\.v\d+$/, ''))) {
      return null;
    }
    const { type, envelope } = readEnvelope(message);
    const handler = byType.get(type);
    if (!handler) {
      if (namesHandled.has(envelope.type)) {
        throw new PoisonMessageError(`unsupported version ${envelope.version} of ${envelope.type}`);
      }
      return null;
    }
    if (handler.event.topic !== message.topic) {
      throw new PoisonMessageError(`${type} arrived on ${message.topic}, expected ${handler.event.topic}`);
    }
    const result = validateEventData(handler.event, envelope.data);
    if (!result.ok) throw new PoisonMessageError(result.reason);
    return { handler, item: { data: result.data, context: { envelope: { ...envelope, data: result.data }, message } } };
  };

  // Only a group with a batch handler asks the bus for batches: the others keep one commit per message.
  const batched = [...byType.values()].some((handler) => handler.handleMany !== undefined);
  return bus.subscribe({
    group: options.group,
    topics,
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
    handler: async (message) => {
      const decoded = decode(message);
      if (decoded) await decoded.handler.handle(decoded.item.data, decoded.item.context);
    },
    ...(batched ? { batchHandler: (messages: readonly BusMessage[]) => handleInRuns(messages.map(decode)) } : {}),
  });
}

/**
 * Handles decoded messages in order: consecutive events of one batch handler in one handleMany call,
 * the others one by one. (An invalid message already threw in decode: the bus then goes one by one and
 * dead-letters it alone.)
 */
async function handleInRuns(decoded: readonly ({ handler: EventHandler; item: EventItem } | null)[]): Promise<void> {
  let index = 0;
  while (index < decoded.length) {
    const first = decoded[index];
    index++;
    if (!first) continue;
    const handleMany = first.handler.handleMany;
    if (!handleMany) {
      await first.handler.handle(first.item.data, first.item.context);
      continue;
    }
    const run = [first.item];
    for (; index < decoded.length; index++) {
      const next = decoded[index];
      if (next === null || next === undefined) continue;
      if (next.handler !== first.handler) break;
      run.push(next.item);
    }
    await handleMany(run);
  }
}
