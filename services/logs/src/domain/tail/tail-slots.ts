/**
 * The bound on open live tails: so many per server and so many in this process. A refused tail is told
 * which bound it hit (the route answers 429 with a message naming it), never left waiting.
 */
export type SlotRefusal = 'server' | 'instance';

export type SlotResult = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly refusal: SlotRefusal };

export interface TailSlots {
  acquire(serverId: string): SlotResult;
  readonly perServer: number;
  readonly perInstance: number;
  /** Open tails in this process (diagnostics and tests). */
  open(): number;
}

export function createTailSlots(perServer: number, perInstance: number): TailSlots {
  const byServer = new Map<string, number>();
  let total = 0;
  return {
    perServer,
    perInstance,
    open: () => total,
    acquire(serverId) {
      const current = byServer.get(serverId) ?? 0;
      if (current >= perServer) return { ok: false, refusal: 'server' };
      if (total >= perInstance) return { ok: false, refusal: 'instance' };
      byServer.set(serverId, current + 1);
      total += 1;
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          total -= 1;
          const left = (byServer.get(serverId) ?? 1) - 1;
          if (left <= 0) byServer.delete(serverId);
          else byServer.set(serverId, left);
        },
      };
    },
  };
}
