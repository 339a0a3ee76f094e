// Shared helpers of the sandbox tests: calls over real HTTP, and brute-force scans of the universe through
// its public lawsuit objects (never through the search code under test).

import { cnjCheckDigits, formatCnj } from '../../src/sandbox/check-digits.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export const KEY = 'sandbox-key';
/** A fixed instant so that results do not depend on the day the tests run. */
export const NOW = '2026-06-15T12:00:00.000Z';

/** The sandbox tests pin the spec's dialect unless they ask for another: they are its reading of the spec,
 * whatever dialect a sandbox speaks by default. */
export async function sandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ lawsuits: 2000, seed: 7, now: NOW, rateLimit: 100000, bootId: 'test', dialect: 'spec', ...opts });
}

export interface Call { status: number; headers: Headers; body: any }

export async function call(sb: Sandbox, method: string, path: string, body?: unknown, key: string | null = KEY): Promise<Call> {
  const headers: Record<string, string> = {};
  if (key !== null) headers['api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(sb.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Polls GET /requests/<id> until the request has finished (the sandbox clock flows with real time). */
export async function waitFinished(sb: Sandbox, id: string, key = KEY): Promise<string> {
  for (let k = 0; k < 500; k++) {
    const r = await call(sb, 'GET', `/requests/${id}`, undefined, key);
    if (r.status !== 200) throw new Error(`GET /requests/${id} ${r.status}`);
    if (r.body.status === 'completed' || r.body.status === 'cancelled') return r.body.status;
    await new Promise((res) => setTimeout(res, 5));
  }
  throw new Error(`request ${id} never finished`);
}

/** POST /requests, wait for it to finish, then read every response page; returns the request and the items. */
export async function runSearch(sb: Sandbox, search: Record<string, unknown>, key = KEY): Promise<{ request: any; items: any[]; last: any }> {
  const post = await call(sb, 'POST', '/requests', { search }, key);
  if (post.status !== 200) throw new Error(`POST /requests ${post.status} ${JSON.stringify(post.body)}`);
  const id = post.body.request_id;
  await waitFinished(sb, id, key);
  const items: any[] = [];
  let last: any;
  for (let page = 1; ; page++) {
    const r = await call(sb, 'GET', `/responses?request_id=${id}&page=${page}&page_size=100`, undefined, key);
    last = r.body;
    items.push(...r.body.page_data);
    if (page >= r.body.all_pages_count) break;
  }
  return { request: post.body, items, last };
}

export const digits = (s: string) => s.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
export const keyOf = (l: { code: string; instance: number }) => `${l.code}#${l.instance}`;

/** Every lawsuit object of the universe as a document search at time t would observe it, unmasked. */
export function scan(sb: Sandbox, opts: { onDemand?: boolean; at?: number } = {}): any[] {
  const t = opts.at ?? sb.state.clock.now();
  const out: any[] = [];
  for (let i = 0; i < sb.universe.count; i++) {
    const l = sb.universe.lawsuit(i, t, { onDemand: opts.onDemand ?? false, shape: 'full', privileged: true });
    if (l) out.push(l);
  }
  return out;
}

export const normName = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();

/** A valid CNJ number (check digits right) that the sandbox's universe does not hold. */
export function missingNumber(sb: Sandbox): string {
  for (let n = 1; ; n++) {
    const n7 = String(n).padStart(7, '0');
    const code = formatCnj(n7, cnjCheckDigits(n7, '2020', '8', '26', '0100'), '2020', '8', '26', '0100');
    if (sb.universe.lawsuitsOfCnj(code).length === 0) return code;
  }
}
