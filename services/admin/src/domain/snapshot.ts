/**
 * A value rebuilt at most every `maxAgeMs`, served stale while the next one is built (stale-while-revalidate).
 *
 * The staff screens' whole-site answers (GET /admin/stats, GET /admin/servers) read every server of the read
 * model: at 5,000 servers that costs more than a request should pay on every 10-second poll of every open
 * staff tab. Each replica keeps its latest answer and rebuilds it in the background once it is older than
 * maxAgeMs, so a request pays the build only when there is no answer yet (the first one after start). The
 * figures are then at most maxAgeMs plus one build older than the read model, which is itself seconds behind
 * its owners' facts: the dashboard does not promise more.
 */
export interface Snapshot<T> {
  get(): Promise<T>;
}

export function createSnapshot<T>(build: () => Promise<T>, maxAgeMs: number, now: () => number = Date.now): Snapshot<T> {
  let current: { value: T; builtAt: number } | null = null;
  let building: Promise<T> | null = null;

  function rebuild(): Promise<T> {
    building ??= (async () => {
      const startedAt = now();
      try {
        const value = await build();
        current = { value, builtAt: startedAt };
        return value;
      } finally {
        building = null;
      }
    })();
    return building;
  }

  return {
    async get() {
      if (current === null) return rebuild();
      if (now() - current.builtAt >= maxAgeMs) {
        // The stale answer now; a failed background build leaves it in place and the next request tries again.
        rebuild().catch(() => undefined);
      }
      return current.value;
    },
  };
}
