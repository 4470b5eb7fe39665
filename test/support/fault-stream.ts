/**
 * A game server's steady stream of logs through the gateway, for fault tests: small batches, one
 * request at a time, each log a unique message. It records what it sent and what was acknowledged
 * (201); a refusal or a failed connection (a process being down) is only counted: the client does not
 * resend, so a log stored twice can only come from the pipeline, never from the test.
 */
import { api } from './api-client.ts';

export const STREAM_LOG_TYPE = 'Stream';
const BATCH = 10;
const PAUSE_BETWEEN_MS = 100;

export class FaultStream {
  readonly #gatewayUrl: string;
  readonly #apiKey: string;
  readonly #label: string;
  readonly #sent: string[] = [];
  readonly #acknowledged: string[] = [];
  readonly #outcomes = new Map<string, number>();
  #sequence = 0;
  #stopped = false;
  #paused = false;
  #idle: Promise<void> = Promise.resolve();
  #loop: Promise<void> = Promise.resolve();

  constructor(gatewayUrl: string, apiKey: string, label: string) {
    this.#gatewayUrl = gatewayUrl;
    this.#apiKey = apiKey;
    this.#label = label;
  }

  start(): void {
    this.#loop = this.#run();
  }

  /** Resolves once no request is in flight; nothing is sent until resume(). */
  async pause(): Promise<void> {
    this.#paused = true;
    await this.#idle;
  }

  resume(): void {
    this.#paused = false;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop;
  }

  sent(): readonly string[] {
    return this.#sent;
  }

  acknowledged(): readonly string[] {
    return this.#acknowledged;
  }

  /** Requests that were refused or never answered so far. */
  notAcknowledged(): number {
    return [...this.#outcomes].filter(([outcome]) => outcome !== '201').reduce((sum, [, count]) => sum + count, 0);
  }

  /** Waits until at least `count` logs were acknowledged. */
  async waitForAcknowledged(count: number, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#acknowledged.length < count) {
      if (Date.now() > deadline) throw new Error(`stream: ${this.#acknowledged.length} of ${count} logs acknowledged after ${timeoutMs} ms (${this.summary()})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Requests by outcome: `201`, other statuses, `failed` (no answer). */
  summary(): string {
    return [...this.#outcomes].map(([outcome, count]) => `${outcome}: ${count}`).join(', ');
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      if (this.#paused) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const batch = Array.from({ length: BATCH }, () => `stream-${this.#label}-${++this.#sequence}`);
      this.#sent.push(...batch);
      const request = this.#send(batch);
      this.#idle = request;
      await request;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_MS));
    }
  }

  async #send(batch: readonly string[]): Promise<void> {
    let outcome: string;
    try {
      const response = await api(this.#gatewayUrl, 'POST', '/api/logs', {
        headers: { 'x-api-key': this.#apiKey },
        body: batch.map((message) => ({ message, type: STREAM_LOG_TYPE, level: 'info' })),
      });
      outcome = String(response.status);
      if (response.status === 201) this.#acknowledged.push(...batch);
    } catch {
      outcome = 'failed';
    }
    this.#outcomes.set(outcome, (this.#outcomes.get(outcome) ?? 0) + 1);
  }
}

/** Every stored log of the stream (ids and messages), paged through the logs process. */
export async function storedStreamLogs(gatewayUrl: string, token: string, serverId: string): Promise<{ id: string; message: string }[]> {
  const pageSize = 250;
  const all: { id: string; message: string }[] = [];
  for (let page = 1; ; page += 1) {
    const response = await api<{ id: string; message: string }[]>(
      gatewayUrl,
      'GET',
      `/api/logs/my?serverId=${serverId}&type=${STREAM_LOG_TYPE}&page=${page}&pageSize=${pageSize}`,
      { token },
    );
    if (response.status !== 200) throw new Error(`listing the stream answered ${response.status}`);
    all.push(...response.body.map(({ id, message }) => ({ id, message })));
    if (response.body.length < pageSize) return all;
  }
}
