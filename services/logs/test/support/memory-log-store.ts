/**
 * A simple in-memory LogStore for the logs service's unit tests (the real SQLite/Mongo adapters are tested
 * by their own contract suite; the service tests also run against the SQLite adapter where it matters).
 */
import type { DeleteResult, LogPage, LogQuery, LogRecord, LogStats, LogStore, LogType, TextPhotoCount } from '@skald/ports';

export class MemoryLogStore implements LogStore {
  readonly records = new Map<string, LogRecord>();

  async insertBatch(records: readonly LogRecord[]): Promise<{ inserted: number }> {
    let inserted = 0;
    for (const r of records) {
      if (this.records.has(r.id)) continue;
      this.records.set(r.id, r);
      inserted += 1;
    }
    return { inserted };
  }

  private sorted(serverId: string): LogRecord[] {
    return [...this.records.values()]
      .filter((r) => r.serverId === serverId)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  async query(q: LogQuery): Promise<LogPage> {
    const eq = (a: string, b: string | undefined) => b === undefined || a.toLowerCase() === b.toLowerCase();
    const needle = q.search?.toLowerCase();
    const all = this.sorted(q.serverId).filter(
      (r) =>
        (q.logType === undefined || r.logType === q.logType) &&
        eq(r.type, q.type) &&
        eq(r.level, q.level) &&
        eq(r.resource, q.resource) &&
        (q.from === undefined || r.createdAt >= q.from) &&
        (q.to === undefined || r.createdAt <= q.to) &&
        (needle === undefined ||
          [r.message, r.type, r.level, r.resource, r.metadata ? JSON.stringify(r.metadata) : ''].some((t) => t.toLowerCase().includes(needle))),
    );
    return { items: all.slice(q.offset, q.offset + q.limit), total: all.length };
  }

  async stats(serverId: string, range: { fromDay: string; toDay: string }): Promise<LogStats> {
    const totals = { text: 0, photo: 0 };
    const perDay: Record<string, TextPhotoCount> = {};
    const perLevel: Record<string, TextPhotoCount> = {};
    const perType: Record<string, TextPhotoCount> = {};
    const perResource: Record<string, TextPhotoCount> = {};
    const bump = (map: Record<string, TextPhotoCount>, key: string, t: LogType) => {
      const c = map[key] ?? { text: 0, photo: 0 };
      map[key] = { ...c, [t]: c[t] + 1 };
    };
    for (const r of this.sorted(serverId)) {
      totals[r.logType] += 1;
      const day = new Date(r.createdAt).toISOString().slice(0, 10);
      if (day >= range.fromDay && day <= range.toDay) bump(perDay, day, r.logType);
      bump(perLevel, r.level, r.logType);
      bump(perType, r.type, r.logType);
      bump(perResource, r.resource, r.logType);
    }
    return { totals, perDay, perLevel, perType, perResource };
  }

  async facets(serverId: string) {
    const rs = this.sorted(serverId);
    const uniq = (f: (r: LogRecord) => string) => [...new Set(rs.map(f))].sort();
    return { levels: uniq((r) => r.level), types: uniq((r) => r.type), resources: uniq((r) => r.resource) };
  }

  async count(serverId: string, logType?: LogType): Promise<number> {
    return this.sorted(serverId).filter((r) => logType === undefined || r.logType === logType).length;
  }

  private remove(list: LogRecord[]): DeleteResult {
    const objectKeys: string[] = [];
    for (const r of list) {
      this.records.delete(r.id);
      if (r.imageKey) objectKeys.push(r.imageKey);
      if (r.thumbKey) objectKeys.push(r.thumbKey);
    }
    return { deletedCount: list.length, objectKeys };
  }

  async deleteBefore(serverId: string, before: number): Promise<DeleteResult> {
    return this.remove(this.sorted(serverId).filter((r) => r.createdAt < before));
  }

  async deleteExpired(now: number): Promise<DeleteResult> {
    return this.remove([...this.records.values()].filter((r) => r.expiresAt <= now));
  }

  async deleteOldest(serverId: string, logType: LogType, keep: number): Promise<DeleteResult> {
    return this.remove(this.sorted(serverId).filter((r) => r.logType === logType).slice(keep));
  }

  async close(): Promise<void> {}
}
