import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox/server.js';
import { Warehouse } from '../src/warehouse/warehouse.js';
import { CLI } from './cli-path.js';
import { ordinaryMix, universeArgs, withUniverse } from './documents.js';
import { measuredRun, sandboxRunEnv } from './pipeline-run.js';
import { peakRss } from './peak-rss.js';
import { round } from './round.js';
import { sandboxChild } from './sandbox-child.js';

// BENCH_ONLY=webhook: the webhook intake (issue 35), self-contained.
//
// 1. Deliveries accepted per second and their latency (send to answer, p50 and p99), with an fsync per delivery and
//    with group commit (`LAWSUIT_CALLBACK_FSYNC`): `lawsuit-etl receive` in a child process under the production
//    memory budget, fed by 16 keep-alive connections here (as many deliveries in flight as the sandbox sends; a
//    closed loop, so latency is about connections / pace) with realistic payloads (the sandbox's response items,
//    each with a response id of its own). The goal: 1,000 a second or more, p99 under 50 ms.
// 2. The intake's peak RSS (VmHWM) once 100,000 deliveries are in its spool (20,000 with BENCH_QUICK): under 128 MB.
// 3. The listing calls (GET /responses) of one night polled and of the same night with the intake on, against a
//    sandbox child that pushes to a `receive` child; each warehouse first learns the dialect with `lawsuit-etl
//    doctor`, so that the calls counted are the night's own.
//
// Timing figures are those of the machine the bench runs on: on a shared one they are noisy (call counts and RSS
// are not).

const SECRET = 'bench0123456789abcdef0123456789abcdef';
const CONNECTIONS = 16;
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--max-old-space-size=128 --max-semi-space-size=4').split(' ');

interface Intake { child: ChildProcess; url: string; stop(): Promise<void> }

/** `lawsuit-etl receive` in a child process, its spool beside `dir`'s warehouse. */
function receive(dir: string, fsync: 'batch' | 'delivery'): Promise<Intake> {
  const env = { ...process.env, LOG_LEVEL: 'warn', LAWSUIT_WAREHOUSE: join(dir, 'w.duckdb'), LAWSUIT_CALLBACK_SECRET: SECRET, LAWSUIT_CALLBACK_FSYNC: fsync };
  const child = spawn(process.execPath, [...NODE_FLAGS, CLI, 'receive', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (c) => reject(new Error(`receive exited (${c})`)));
    child.stdout.once('data', (d: Buffer) => {
      child.removeAllListeners('exit');
      resolve({
        child, url: d.toString().split('\n')[0].trim(),
        stop: () => new Promise<void>((r) => { child.once('exit', () => r()); child.kill('SIGTERM'); }),
      });
    });
  });
}

/** Response items as the sandbox renders them: the payloads delivered, cycled with response ids of their own. */
async function payloads(): Promise<string[]> {
  const sb = await startSandbox({ seed: 7, lawsuits: 100_000, rateLimit: 1_000_000 });
  try {
    const doc = sb.sampleDocuments(50).find((d) => d.search_type === 'cnpj' && sb.truth(d).length >= 50)!;
    const post = await fetch(`${sb.url}/requests`, { method: 'POST', headers: { 'api-key': 'sandbox-key', 'content-type': 'application/json' }, body: JSON.stringify({ search: doc }) });
    const id = ((await post.json()) as { request_id: string }).request_id;
    await new Promise((r) => setTimeout(r, 200));
    const page = await fetch(`${sb.url}/responses?request_id=${id}&page_size=100`, { headers: { 'api-key': 'sandbox-key' } });
    return ((await page.json()) as { page_data: unknown[] }).page_data.map((i) => JSON.stringify(i));
  } finally {
    await sb.close();
  }
}

function envelope(item: string, n: number): string {
  const id = `bench-${n}`;
  const payload = item.replace(/"response_id":"[^"]*"/, `"response_id":"${id}"`);
  return `{"user_id":"u","callback_id":"cb-${n}","event_type":"response_created","reference_type":"request","reference_id":"q-${n % 500}","payload":${payload}}`;
}

function post(agent: Agent, url: URL, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface IntakeFigures {
  fsync: string; deliveries: number; perSec: number; p50Ms: number; p99Ms: number; rssMb: number; refused: number; bytes: number;
  /** The intake's own CPU time per delivery (user and system), in µs: what a shared machine's load changes least. */
  cpuUs: number;
}

/** CPU seconds (user and system) a process has used so far. Linux only, like the benchmark. */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** `n` deliveries over CONNECTIONS connections to a fresh intake: its pace, its latencies, its peak RSS at the end. */
async function intakeRun(items: readonly string[], n: number, fsync: 'batch' | 'delivery'): Promise<IntakeFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-intake-'));
  const intake = await receive(dir, fsync);
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const url = new URL(intake.url);
  const latencies = new Float64Array(n);
  let next = 0;
  let refused = 0;
  let bytes = 0;
  const cpu0 = cpuSeconds(intake.child.pid!);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    for (let k = next++; k < n; k = next++) {
      const body = envelope(items[k % items.length], k);
      bytes += body.length;
      const s = performance.now();
      if (await post(agent, url, body) !== 200) refused++;
      latencies[k] = performance.now() - s;
    }
  }));
  const ms = performance.now() - t0;
  const cpuUs = Math.round(((cpuSeconds(intake.child.pid!) - cpu0) / n) * 1e6);
  const rssMb = Math.round(peakRss(intake.child.pid!));
  agent.destroy();
  await intake.stop();
  rmSync(dir, { recursive: true, force: true });
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    fsync, deliveries: n, perSec: Math.round(n / (ms / 1000)), p50Ms: round(sorted[Math.floor(n * 0.5)], 1), p99Ms: round(sorted[Math.floor(n * 0.99)], 1),
    rssMb, refused, bytes, cpuUs,
  };
}

/** GET /responses calls of the last `run` of a warehouse, from its summary. */
async function listingCalls(path: string): Promise<{ listing: number; responses: number }> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const [run] = await wh.all<{ summary: string }>(`SELECT summary::VARCHAR AS summary FROM runs WHERE command = 'run' ORDER BY started_at DESC LIMIT 1`);
    const s = JSON.parse(run.summary) as { api: { byRouteStatus?: Record<string, number> } };
    const listing = Object.entries(s.api.byRouteStatus ?? {}).filter(([k]) => k.startsWith('GET /responses ')).reduce((a, [, v]) => a + v, 0);
    const [r] = await wh.all<{ n: bigint }>('SELECT count(*) AS n FROM responses_raw');
    return { listing, responses: Number(r.n) };
  } finally {
    await wh.close();
  }
}

interface NightFigures { listing: number; responses: number; exitCode: number | null; ms: number }

/** One night of `csv` in a warehouse of its own (its dialect learned first by doctor), with the intake on or not. */
async function night(sandboxUrl: string, csv: string, withIntake: boolean): Promise<NightFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-night-'));
  const intake = withIntake ? await receive(dir, 'batch') : undefined;
  try {
    writeFileSync(join(dir, 'documents.csv'), csv);
    const env = {
      ...sandboxRunEnv(sandboxUrl, dir), LAWSUIT_DOCUMENTS: join(dir, 'documents.csv'), LAWSUIT_SKIP_TRANSFER: 'true',
      ...(intake ? { LAWSUIT_CALLBACK_URL: intake.url, LAWSUIT_CALLBACK_SECRET: SECRET } : {}),
    };
    const doctor = await measuredRun(['doctor'], env);
    if (doctor.exitCode !== 0) throw new Error(`doctor exited ${doctor.exitCode}`);
    const r = await measuredRun(['run'], env);
    return { ...(await listingCalls(join(dir, 'w.duckdb'))), exitCode: r.exitCode, ms: r.ms };
  } finally {
    await intake?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How much the webhook part measures: deliveries per fsync mode, deliveries for the RSS, the night's documents and universe. */
export interface WebhookSize { each: number; batch: number; many: number; documents: number; universe: number }

export async function webhookFigures(size: WebhookSize, line: (k: string, v: string | number, note?: string) => void): Promise<Record<string, number>> {
  const items = await payloads();
  const avg = Math.round(items.reduce((a, i) => a + i.length, 0) / items.length);
  const each = await intakeRun(items, size.each, 'delivery');
  const batch = await intakeRun(items, size.batch, 'batch');
  for (const f of [each, batch]) {
    line(`intake deliveries/s (fsync ${f.fsync})`, f.perSec, `${f.deliveries} deliveries of ~${avg} bytes over ${CONNECTIONS} connections; p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms; `
      + `${f.cpuUs} µs of the intake's CPU a delivery; ${f.refused} refused`);
  }
  const many = size.many;
  const big = await intakeRun(items, many, 'batch');
  line(`intake_rss_mb (${many / 1000}k deliveries)`, big.rssMb, `peak RSS (VmHWM) of receive, ${Math.round(big.bytes / 2 ** 20)} MB received, ${big.perSec}/s, p99 ${big.p99Ms} ms`);

  const csv = await withUniverse(size.universe, (sb) => ordinaryMix(sb, size.documents));
  const sb = await sandboxChild([...universeArgs(size.universe), '--rate-limit', '1000000', '--court-delay-ms', '300', '--callback-retry-ms', '200']);
  let polled: NightFigures;
  let pushed: NightFigures;
  try {
    polled = await night(sb.url, csv, false);
    pushed = await night(sb.url, csv, true);
  } finally {
    sb.stop();
  }
  line('night listing calls (polled)', polled.listing, `${polled.responses} responses, ${(polled.ms / 1000).toFixed(0)} s, exit ${polled.exitCode}`);
  line('night listing calls (intake)', pushed.listing, `${pushed.responses} responses, ${(pushed.ms / 1000).toFixed(0)} s, exit ${pushed.exitCode}`);
  line('night listing calls intake/polled', round(pushed.listing / Math.max(1, polled.listing)), 'goal: at most 0.1');
  return {
    intake_per_sec_fsync_delivery: each.perSec, intake_p50_ms_fsync_delivery: each.p50Ms, intake_p99_ms_fsync_delivery: each.p99Ms,
    intake_per_sec_fsync_batch: batch.perSec, intake_p50_ms_fsync_batch: batch.p50Ms, intake_p99_ms_fsync_batch: batch.p99Ms,
    intake_cpu_us_per_delivery_fsync_delivery: each.cpuUs, intake_cpu_us_per_delivery_fsync_batch: batch.cpuUs,
    intake_rss_mb: big.rssMb, intake_rss_deliveries: many,
    night_listing_calls_polled: polled.listing, night_listing_calls_intake: pushed.listing,
    night_listing_ratio: round(pushed.listing / Math.max(1, polled.listing)),
    night_responses_polled: polled.responses, night_responses_intake: pushed.responses,
  };
}
