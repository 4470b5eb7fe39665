/**
 * CPU time of each thread of this process as Linux counts it (/proc/self/task; nothing elsewhere): what the
 * benches report as "CPU by thread" (the event loop's, the adapters' workers', V8's GC helpers').
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system) of one thread of the process, by the name the OS shows for it. */
export interface ThreadCpu {
  readonly name: string;
  readonly cpuUs: number;
}

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** utime + stime of every thread of this process, in microseconds, by thread id. */
export function threadTimes(): Map<string, ThreadCpu> {
  const times = new Map<string, ThreadCpu>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return times;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The name is in parentheses and may hold spaces; the fields after it are space-separated.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(tid, { name, cpuUs: (Number(fields[11]) + Number(fields[12])) * TICK_US });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return times;
}

/** The same summed by name (the threads of one pool share theirs), in microseconds. */
export function cpuByThreadName(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const { name, cpuUs } of threadTimes().values()) byName.set(name, (byName.get(name) ?? 0) + cpuUs);
  return byName;
}
