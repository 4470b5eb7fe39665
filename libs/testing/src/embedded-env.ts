/**
 * The settings that run a process on the embedded adapter of every port (a service started alone in a
 * test, its data under DATA_DIR). A test with a real bus sets EVENT_BUS after spreading these.
 */
export const EMBEDDED_ADAPTERS_ENV = {
  EVENT_BUS: 'memory',
  DOC_STORE: 'sqlite',
  LOG_STORE: 'sqlite',
  OBJECT_STORE: 'fs',
  JOB_QUEUE: 'embedded',
  COUNTERS: 'memory',
  MAILER: 'outbox',
} as const satisfies Record<string, string>;
