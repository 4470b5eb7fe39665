/**
 * The admission of photo uploads into one process, which bounds the memory they can make it use:
 *  - at most `maxInFlight` uploads are between "headers received" and "answer sent" (each holds its
 *    photo, up to 10 MB, and then its re-encoded image); one more is refused at once, before its body is
 *    read, with PhotoBusyError (the route answers 503 + Retry-After);
 *  - of those, decodes share `decodeSlots` slots (one slot: one decode budget of memory); a decode takes
 *    one slot, or two when it is known to need more memory. The others wait in arrival order, for at most
 *    `maxDecodeWaitMs`, then are refused the same way.
 * A refused upload was never accepted: the client sends it again later.
 */

export class PhotoBusyError extends Error {
  override readonly name = 'PhotoBusyError';
  readonly retryAfterSeconds: number;
  constructor(reason: string, retryAfterSeconds: number) {
    super(reason);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface PhotoGateOptions {
  readonly maxInFlight: number;
  readonly decodeSlots: number;
  readonly maxDecodeWaitMs: number;
  /** What a refused client is told to wait before sending again. */
  readonly retryAfterSeconds: number;
}

interface Waiter {
  readonly units: number;
  readonly start: () => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

export class PhotoGate {
  readonly options: PhotoGateOptions;
  private inFlight = 0;
  private unitsInUse = 0;
  private readonly waiting: Waiter[] = [];

  constructor(options: PhotoGateOptions) {
    if (options.decodeSlots < 1 || options.maxInFlight < options.decodeSlots) {
      throw new Error('PhotoGate needs at least one decode slot and at least as many uploads in flight as slots');
    }
    this.options = options;
  }

  /** Uploads admitted and not yet left; decode slots in use; decodes waiting for slots. */
  stats(): { readonly inFlight: number; readonly slotsInUse: number; readonly waiting: number } {
    return { inFlight: this.inFlight, slotsInUse: this.unitsInUse, waiting: this.waiting.length };
  }

  /**
   * Admits one upload or throws PhotoBusyError. The returned function lets it leave; calling it again is
   * harmless, so it can be tied to "the answer was sent or the connection closed", whichever comes first.
   */
  enter(): () => void {
    if (this.inFlight >= this.options.maxInFlight) {
      throw new PhotoBusyError('Too many photos are being processed; send it again shortly', this.options.retryAfterSeconds);
    }
    this.inFlight += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight -= 1;
    };
  }

  /**
   * Runs `work` holding `slots` decode slots (a decode that needs twice the memory takes two), waiting for
   * them in arrival order at most maxDecodeWaitMs, then PhotoBusyError. Arrival order means a decode
   * needing two slots is not overtaken for ever by decodes needing one.
   */
  async decode<T>(work: () => Promise<T>, slots = 1): Promise<T> {
    const units = Math.min(Math.max(1, slots), this.options.decodeSlots);
    if (this.waiting.length === 0 && this.unitsInUse + units <= this.options.decodeSlots) this.unitsInUse += units;
    else await this.waitFor(units);
    try {
      return await work();
    } finally {
      this.unitsInUse -= units;
      this.startWaiters();
    }
  }

  private waitFor(units: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        units,
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new PhotoBusyError('Photo processing is busy; send it again shortly', this.options.retryAfterSeconds));
          // A waiter that needed more slots may have been holding back smaller ones behind it.
          this.startWaiters();
        }, this.options.maxDecodeWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  /** Hands free slots to the waiters at the head of the line, in order; the slots are taken here, so no newcomer gets them first. */
  private startWaiters(): void {
    for (let next = this.waiting[0]; next !== undefined && this.unitsInUse + next.units <= this.options.decodeSlots; next = this.waiting[0]) {
      this.waiting.shift();
      this.unitsInUse += next.units;
      next.start();
    }
  }
}
