import { writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { readDocuments, type DocumentSpec } from '../../src/input/documents.js';
import { searchFor } from '../../src/pipeline/plan.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { query } from './pipeline.js';

// The sandbox's ground truth of a night (POST /_sandbox/truth, docs/sandbox.md): every lawsuit a list of documents
// finds, whole, as a lawsuit-level read at that instant answers it, and those such a read would not give. A
// warehouse a night made from headers and lawsuit-level reads must hold each whole, as the truth says.

interface Step { step_id: string }
export interface TruthLawsuit {
  code: string; instance: number; phase?: string | null; status?: string | null; steps?: Step[];
  last_step?: { step_id: string; steps_count: number };
}
export interface Truth {
  at: string;
  lawsuits: TruthLawsuit[];
  unavailable: Array<{ code: string; instance: number | null; status: number; reason: string }>;
}

export async function truthOf(url: string, docs: readonly DocumentSpec[], at?: Date): Promise<Truth> {
  const res = await fetch(`${url}/_sandbox/truth${at ? `?at=${at.toISOString()}` : ''}`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ documents: docs.filter((d) => !['lawsuit_cnj', 'lawsuit_id'].includes(d.searchType)).map((d) => searchFor(d)),
      cnj: docs.filter((d) => d.searchType === 'lawsuit_cnj').map((d) => d.searchKey) }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Truth;
}

const key = (l: { code: string; instance: number | null }): string => `${l.code}#${l.instance}`;

/** How far each lawsuit of the truth has gone: its last step and count, by code#instance. */
export function progressOf(t: Truth): Map<string, string> {
  return new Map(t.lawsuits.map((l) => [key(l), `${l.last_step?.step_id}/${l.last_step?.steps_count}`]));
}

/** The numbers whose lawsuits were born or moved from one truth to the next: what a night must read, and no more. */
export function movedOrBorn(before: Truth, after: Truth): Set<string> {
  const was = progressOf(before);
  const codes = new Set<string>();
  for (const [k, p] of progressOf(after)) if (was.get(k) !== p) codes.add(k.split('#')[0]);
  return codes;
}

/**
 * Every lawsuit of the truth held whole as it says (level, phase, status, last step, the steps), the unavailable ones
 * so. `except` (code#instance) leaves out, on both sides, lawsuits the night could not yet see (a trackings night sees
 * what its trackings' runs saw: those changed after the runs wait for the next ones).
 */
export async function expectWholeAsTruth(warehouse: string, truth: Truth, except: ReadonlySet<string> = new Set()): Promise<void> {
  const rows = await query<{ code: string; instance: number; level: string; phase: string | null; status: string | null; last_step_id: string | null; steps_count: number | null; steps: string[] }>(warehouse, `
    SELECT v.code, v.instance, v.level, l.phase, l.status, l.last_step_id, l.steps_count,
      (SELECT list(s.step_id ORDER BY s.step_id) FROM steps s WHERE s.code = v.code AND s.instance = v.instance) AS steps
    FROM v_lawsuit_levels v JOIN lawsuits l USING (code, instance)`);
  const held = new Map(rows.filter((r) => !except.has(key(r))).map((r) => [key(r), r]));
  const want = new Map(truth.lawsuits.filter((l) => !except.has(key(l))).map((l) => [key(l), {
    code: l.code, instance: l.instance, level: 'whole', phase: l.phase ?? null, status: l.status ?? null,
    last_step_id: l.last_step?.step_id ?? null, steps_count: l.last_step?.steps_count ?? 0, steps: (l.steps ?? []).map((s) => s.step_id).sort(),
  }]));
  for (const [k, w] of want) {
    const h = held.get(k);
    expect(h, `${k} is in the warehouse`).toBeDefined();
    expect({ ...h!, steps: h!.steps ?? [] }, k).toEqual(w);
  }
  const unavailable = truth.unavailable.filter((x) => x.instance !== null && !except.has(key(x)));
  for (const u of unavailable) {
    expect(held.get(key(u))?.level, `${key(u)}: ${u.reason}`).toBe('unavailable');
  }
  const expected = new Set([...want.keys(), ...unavailable.map(key)]);
  expect(new Set(held.keys())).toEqual(expected);
}

/**
 * A documents list of `sample` written to `csv` and read back, but the lawsuit numbers the provider keeps secret (a
 * secret number of the list fails as a document of the list, its own test's subject): the two-levels tests' portfolio.
 */
export async function portfolioOf(url: string, csv: string, sample: ReadonlyArray<{ search_type: string; search_key: string }>): Promise<DocumentSpec[]> {
  writeFileSync(csv, ['search_key,search_type', ...sample.map((d) => `"${d.search_key}",${d.search_type}`)].join('\n'));
  const listed = (await readDocuments(csv)).documents;
  const secret = new Set((await truthOf(url, listed)).unavailable.filter((u) => u.status === 403).map((u) => u.code));
  const docs = listed.filter((d) => !(d.searchType === 'lawsuit_cnj' && secret.has(d.searchKey)));
  writeFileSync(csv, ['search_key,search_type', ...docs.map((d) => `"${d.searchKey}",${d.searchType}`)].join('\n'));
  return docs;
}

/** A document that finds few lawsuits (60 at most): the two-levels tests are about levels, not volume. */
export const findsFew = (sb: Sandbox) => (d: { search_type: string; search_key: string }): boolean =>
  sb.truth({ search_type: d.search_type, search_key: d.search_key }).length <= 60;

/** A portfolio of a few individuals, companies and lawyers the sandbox samples, none a huge litigant, no lawsuit_id. */
export function fewSampled(sb: Sandbox) {
  return sb.sampleDocuments(14).filter((d) => d.search_type !== 'lawsuit_id' && findsFew(sb)(d));
}
