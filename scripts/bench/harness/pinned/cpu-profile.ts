/** The parts of a V8 .cpuprofile (--cpu-prof, the inspector's Profiler) the profile scripts read. */
import { readFileSync } from 'node:fs';

export interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
export interface Profile {
  /** Microseconds of the monotonic clock (process.hrtime's); sample i is at startTime + timeDeltas[0..i]. */
  readonly startTime?: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** When each sample was taken, in microseconds of the monotonic clock (startTime 0 when the profile lacks it). */
export function sampleTimes(profile: Profile): number[] {
  let at = profile.startTime ?? 0;
  return profile.timeDeltas.map((delta) => (at += delta));
}

export function readProfile(file: string): Profile {
  return JSON.parse(readFileSync(file, 'utf8')) as Profile;
}
