/**
 * Photo memory: what photo uploads cost a process, beside the documented bound
 * (services/ingestion/src/domain/photo-memory.ts, docs/INGESTION.md "Photo memory") and the deployments'
 * memory limits. Every figure comes from a child process that does nothing else (photo-memory-probe.ts),
 * its peak read from the kernel's high-water mark. Images are generated with sharp at run time, once.
 * The children run with MALLOC_ARENA_MAX=2, as the deployments set it, except the soak's comparison run.
 *
 *   1. one decode of a near-40-megapixel upload per kind (JPEG, PNG, PNG with alpha, WebP, WebP with
 *      alpha): peak above the process before it, against the decode budget of the slots it takes;
 *   2. one upload of a 1920x1080 JPEG and PNG through POST /api/photologs of the all-in-one process;
 *   3. BENCH_PHOTO_UPLOADS (default 8) parallel near-cap uploads through the all-in-one process and
 *      through the ingestion service alone: idle RSS, peak RSS, the answers (201 or 503 + Retry-After),
 *      idle + documented bound, and the Kubernetes memory limit of that deployment;
 *   4. soak, ingestion alone: BENCH_PHOTO_ROUNDS (default 6) rounds of 4 near-cap uploads (2 WebP with
 *      alpha, 2 JPEG): peak RSS with MALLOC_ARENA_MAX=2 and without it.
 *
 * Run: `npm run bench -- photo-memory` (Linux: reads /proc/self/status). Takes about 5 minutes.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { DECODE_BUDGET_BYTES, PHOTO_MEMORY_BOUND_BYTES } from '@skald/ingestion-service/testing';
import type { BenchRow } from '../harness/bench-row.ts';
import { benchImage, squareOf } from '../harness/photo-images.ts';
import type { BenchImageSpec } from '../harness/photo-images.ts';

const PROBE = fileURLToPath(new URL('../harness/photo-memory-probe.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const UPLOADS = Number(process.env['BENCH_PHOTO_UPLOADS'] ?? 8);
const ROUNDS = Number(process.env['BENCH_PHOTO_ROUNDS'] ?? 6);
const NEAR_CAP = squareOf(39.99);
const MB = 1024 * 1024;
const mb = (bytes: number): number => Math.round(bytes / MB);
/** What the deployments set (deploy/k8s ConfigMaps, docker-compose.yml): glibc keeps fewer per-thread heaps. */
const DEPLOYED_ENV = { MALLOC_ARENA_MAX: '2' };

interface BenchImage {
  readonly label: string;
  readonly spec: BenchImageSpec;
  readonly file: string;
  readonly bytes: Buffer;
}

/** A Kubernetes quantity such as 768Mi or 1Gi, in bytes. */
function quantityBytes(quantity: string): number {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(quantity);
  if (!match) throw new Error(`unsupported quantity ${quantity}`);
  const unit = { Ki: 1024, Mi: MB, Gi: 1024 * MB }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}

function memoryLimit(manifest: string): number {
  const deployment = parse(readFileSync(join(ROOT, manifest), 'utf8')) as {
    spec: { template: { spec: { containers: { resources: { limits: { memory: string } } }[] } } };
  };
  return quantityBytes(deployment.spec.template.spec.containers[0]!.resources.limits.memory);
}

function runProbe(args: readonly string[], env: Record<string, string | undefined> = { ...process.env, ...DEPLOYED_ENV }): ChildProcess {
  return fork(PROBE, args, { execArgv: ['--expose-gc'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env });
}

/** The first JSON line the probe prints. */
function firstLine<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const nl = text.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(text.slice(0, nl)) as T);
    });
    child.once('exit', (code) => reject(new Error(`probe exited with ${code} before answering`)));
  });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
}

async function decodeRow(image: BenchImage, slots: number): Promise<BenchRow> {
  const figure = await firstLine<{ inputBytes: number; peakDeltaBytes: number; stored: string }>(runProbe(['decode', image.file]));
  const budget = slots * DECODE_BUDGET_BYTES;
  return {
    name: `one decode, ${image.label} ${image.spec.width}x${image.spec.height}`,
    value: mb(figure.peakDeltaBytes),
    unit: 'MiB',
    target: `<= ${mb(budget)} MiB (${slots} slot${slots > 1 ? 's' : ''})`,
    pass: figure.peakDeltaBytes <= budget,
    note: `upload ${(figure.inputBytes / MB).toFixed(1)} MiB, stored ${figure.stored}`,
  };
}

async function post(url: string, apiKey: string, image: BenchImage): Promise<number> {
  const form = new FormData();
  form.append('message', 'photo bench');
  form.append('photo', new Blob([new Uint8Array(image.bytes)]), `photo.${image.spec.format}`);
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0; // the connection failed: reported as such
  }
}

function tally(statuses: readonly number[]): string {
  return [...new Set(statuses)]
    .sort()
    .map((s) => `${statuses.filter((x) => x === s).length}x ${s === 0 ? 'failed' : s}`)
    .join(', ');
}

interface Served {
  readonly child: ChildProcess;
  readonly photoUrl: string;
  readonly apiKey: string;
  upload(image: BenchImage): Promise<number>;
  /** RSS when the peak was reset, and the peak while `work` ran. */
  measured(work: () => Promise<unknown>): Promise<{ before: number; peak: number }>;
  stop(): Promise<void>;
}

async function serve(target: 'all' | 'ingestion', env?: Record<string, string | undefined>): Promise<Served> {
  const child = runProbe(['serve', target], env);
  const { photoUrl, apiKey } = await firstLine<{ photoUrl: string; apiKey: string }>(child);
  return {
    child,
    photoUrl,
    apiKey,
    upload: (image) => post(photoUrl, apiKey, image),
    async measured(work) {
      const { rss: before } = await ask<{ rss: number }>(child, 'reset');
      await work();
      const { hwm } = await ask<{ hwm: number }>(child, 'peak');
      return { before, peak: hwm };
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      child.kill();
    },
  };
}

async function singleUploadRows(served: Served, images: readonly BenchImage[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const image of images) {
    let status = 0;
    const { before, peak } = await served.measured(async () => {
      status = await served.upload(image);
    });
    rows.push({ name: `one upload, ${image.label} (all-in-one)`, value: mb(peak - before), unit: 'MiB', note: `answer ${status}, upload ${(image.bytes.length / MB).toFixed(1)} MiB` });
  }
  return rows;
}

async function parallelRow(served: Served, where: string, image: BenchImage): Promise<BenchRow> {
  const statuses: number[] = [];
  const { before, peak } = await served.measured(async () => {
    statuses.push(...(await Promise.all(Array.from({ length: UPLOADS }, () => served.upload(image)))));
  });
  const bound = before + PHOTO_MEMORY_BOUND_BYTES;
  return {
    name: `${UPLOADS} parallel uploads, ${image.label} ${image.spec.width}x${image.spec.height} (${where}): peak RSS`,
    value: mb(peak),
    unit: 'MiB',
    target: `<= idle + bound = ${mb(bound)} MiB`,
    pass: peak <= bound,
    baseline: `idle ${mb(before)} MiB, +${mb(peak - before)} MiB`,
    note: `answers: ${tally(statuses)}; upload ${(image.bytes.length / MB).toFixed(1)} MiB`,
  };
}

function limitRow(where: string, idle: number, limit: number): BenchRow {
  const bound = idle + PHOTO_MEMORY_BOUND_BYTES;
  return {
    name: `idle + documented bound vs memory limit (${where})`,
    value: mb(bound),
    unit: 'MiB',
    target: `<= ${mb(limit)} MiB (k8s limit)`,
    pass: bound <= limit,
    note: `idle ${mb(idle)} MiB + bound ${mb(PHOTO_MEMORY_BOUND_BYTES)} MiB (photo-memory.ts)`,
  };
}

async function soakRow(mixed: readonly BenchImage[], arenaCap: boolean): Promise<BenchRow> {
  const env: Record<string, string | undefined> = { ...process.env, ...(arenaCap ? DEPLOYED_ENV : {}) };
  if (!arenaCap) delete env['MALLOC_ARENA_MAX'];
  const served = await serve('ingestion', env);
  try {
    const statuses: number[] = [];
    const { before, peak } = await served.measured(async () => {
      for (let round = 0; round < ROUNDS; round++) statuses.push(...(await Promise.all(mixed.map((image) => served.upload(image)))));
    });
    const bound = before + PHOTO_MEMORY_BOUND_BYTES;
    const name = `soak, ingestion alone, ${ROUNDS} rounds of ${mixed.length} near-cap uploads`;
    const figures = { value: mb(peak), unit: 'MiB', baseline: `idle ${mb(before)} MiB, +${mb(peak - before)} MiB` };
    if (arenaCap) {
      return { name: `${name}, MALLOC_ARENA_MAX=2 (deployed)`, ...figures, target: `<= idle + bound = ${mb(bound)} MiB`, pass: peak <= bound, note: `answers: ${tally(statuses)}` };
    }
    // The comparison, without a target: what the process does without the deployed setting.
    return { name: `${name}, glibc default arenas (not deployed)`, ...figures, note: `idle + bound would be ${mb(bound)} MiB; answers: ${tally(statuses)}` };
  } finally {
    await served.stop();
  }
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-photos-'));
  const make = async (label: string, spec: BenchImageSpec): Promise<BenchImage> => {
    const bytes = await benchImage(spec);
    const file = join(dir, `${label.replace(/\W+/g, '-')}.${spec.format}`);
    writeFileSync(file, bytes);
    return { label, spec, file, bytes };
  };
  try {
    const jpeg = await make('JPEG', { format: 'jpeg', ...NEAR_CAP, alpha: false });
    const webpAlpha = await make('WebP with alpha', { format: 'webp', ...NEAR_CAP, alpha: true });
    const decodes: readonly [BenchImage, number][] = [
      [jpeg, 1],
      [await make('PNG', { format: 'png', ...NEAR_CAP, alpha: false }), 1],
      [await make('PNG with alpha', { format: 'png', ...NEAR_CAP, alpha: true }), 1],
      [await make('WebP', { format: 'webp', ...NEAR_CAP, alpha: false }), 1],
      [webpAlpha, 2],
    ];
    const screenshots = [
      await make('JPEG 1920x1080', { format: 'jpeg', width: 1920, height: 1080, alpha: false }),
      await make('PNG 1920x1080', { format: 'png', width: 1920, height: 1080, alpha: false }),
    ];

    const rows: BenchRow[] = [];
    for (const [image, slots] of decodes) rows.push(await decodeRow(image, slots));
    const deployments = [
      { target: 'all', where: 'all-in-one', manifest: 'deploy/k8s/all-in-one/deployment.yaml' },
      { target: 'ingestion', where: 'ingestion alone', manifest: 'deploy/k8s/base/deployment-ingestion.yaml' },
    ] as const;
    for (const { target, where, manifest } of deployments) {
      const served = await serve(target);
      try {
        const { rss: idle } = await ask<{ rss: number }>(served.child, 'reset');
        rows.push(limitRow(where, idle, memoryLimit(manifest)));
        if (target === 'all') rows.push(...(await singleUploadRows(served, screenshots)));
        rows.push(await parallelRow(served, where, jpeg));
        rows.push(await parallelRow(served, where, webpAlpha));
      } finally {
        await served.stop();
      }
    }
    const mixed = [webpAlpha, jpeg, webpAlpha, jpeg];
    rows.push(await soakRow(mixed, true));
    rows.push(await soakRow(mixed, false));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export default run;

if (import.meta.main) console.table(await run());
