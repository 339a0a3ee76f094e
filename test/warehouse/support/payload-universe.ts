import fc from 'fast-check';
import { rememberRawText } from '../../../src/shared/raw-json.js';
import type { ResponseItem } from '../../../src/spec/types.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

// A small universe of lawsuit payloads for the merge's properties: three lawsuits (two instances of one number),
// three crawl times, two requests, so that equal versions, partial views, null against absent fields, lists
// present, absent and empty, and steps edited and added all meet in a handful of payloads. Built from
// fast-check's combinators, so that a failing case shrinks to a few payloads that read plainly.

const KEYS = [
  { code: '0710802-55.2018.8.02.0001', instance: 1 },
  { code: '0710802-55.2018.8.02.0001', instance: 2 },
  { code: '5059111-78.2025.4.02.5101', instance: 1 },
] as const;
const TIMES = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'] as const;

/** undefined: the payload leaves the field out; null: it sends null. Neither carries a value. */
type Field<T> = T | null | undefined;
const field = <T>(...values: T[]): fc.Arbitrary<Field<T>> => fc.oneof(fc.constant(undefined), fc.constant(null), fc.constantFrom(...values));

export interface Step { id: string; content?: Field<string>; date?: Field<string> }
export interface Payload {
  key: number; request: number; created: string; cached: boolean;
  crawled?: Field<string>; updated?: Field<string>;
  status?: Field<string>; phase?: Field<string>; amount?: Field<number>; name?: Field<string>; secrecy?: Field<number>;
  /** undefined: no list at all; []: an empty list ("none now", but not from a header: see isWhole). */
  parties?: string[]; subjects?: string[]; steps?: Step[]; attachments?: string[];
  /** A header's clue to how far the lawsuit has gone (its last_step). */
  lastStep?: { id: string; count: number };
}

export const payloadArb: fc.Arbitrary<Payload> = fc.record({
  key: fc.constantFrom(0, 1, 2),
  request: fc.constantFrom(0, 1),
  created: fc.constantFrom(...TIMES),
  cached: fc.boolean(),
  crawled: field(...TIMES),
  updated: field(...TIMES),
  status: field('Ativo', 'Finalizado'),
  phase: field('Inicial', 'Sentença', 'Recurso'),
  amount: field(100.5, 2500),
  name: field('Ana x Banco', 'Ana x Banco S/A'),
  secrecy: field(0, 1),
  parties: fc.option(fc.array(fc.constantFrom('Ana', 'Banco', 'Carla'), { maxLength: 2 }), { nil: undefined }),
  subjects: fc.option(fc.uniqueArray(fc.constantFrom('7698', '10433'), { maxLength: 2 }), { nil: undefined }),
  steps: fc.option(fc.uniqueArray(fc.record({
    id: fc.constantFrom('s1', 's2', 's3'),
    content: field('Distribuído por sorteio.', 'Conclusos para decisão.'),
    date: field(...TIMES),
  }), { selector: (s) => s.id, maxLength: 3 }), { nil: undefined }),
  attachments: fc.option(fc.array(fc.constantFrom('Petição Inicial.pdf', 'Sentença.pdf'), { maxLength: 2 }), { nil: undefined }),
  lastStep: fc.option(fc.record({ id: fc.constantFrom('s1', 's2', 's3'), count: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }),
});

/** How a set of payloads is loaded: item indices in order (repeats allowed), cut into nights, in batches of `batch`. */
export interface Plan { order: number[]; nights: number; batch: number }

function planArb(n: number): fc.Arbitrary<Plan> {
  return fc.tuple(fc.array(fc.nat(2), { minLength: n, maxLength: n }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 4 }))
    .chain(([extra, nights, batch]) => {
      const all = extra.flatMap((e, i) => Array.from({ length: 1 + e }, () => i));
      return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }).map((order) => ({ order, nights, batch }));
    });
}

/** A set of payloads and two ways of loading it. */
export const scenarioArb = fc.array(payloadArb, { minLength: 1, maxLength: 8 }).chain((payloads) =>
  fc.record({ payloads: fc.constant(payloads), first: planArb(payloads.length), second: planArb(payloads.length) }));

/** Every table a payload writes, with the columns that say when or by which run (not part of the comparison). */
const PAYLOAD_TABLES: Record<string, readonly string[]> = {
  lawsuits: ['loaded_at', 'first_seen_run', 'last_seen_run'], parties: [], lawyers: [], steps: [], subjects: [],
  classifications: [], courts: [], attachments: [], search_hits: ['first_seen_at'], responses_raw: ['loaded_at', 'run_id'],
  raw_parts: [], load_problems: ['run_id', 'detected_at'],
};

/** Every table a payload writes, as sorted JSON rows, without the columns that say when or by which run. */
export async function dumpPayloadTables(wh: Warehouse): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, bookkeeping] of Object.entries(PAYLOAD_TABLES)) {
    const cols = bookkeeping.length > 0 ? ` EXCLUDE (${bookkeeping.join(', ')})` : '';
    const rows = await wh.all<{ j: string }>(`SELECT to_json(t)::VARCHAR AS j FROM (SELECT *${cols} FROM ${table}) t ORDER BY j`);
    out[table] = rows.map((r) => r.j);
  }
  return out;
}

const defined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function stepObject(s: Step): Record<string, unknown> {
  return defined({ step_id: s.id, content: s.content, step_date: s.date });
}

function lawsuitObject(p: Payload): Record<string, unknown> {
  return defined({
    ...KEYS[p.key],
    crawler: p.crawled === undefined ? undefined : { updated_at: p.crawled },
    updated_at: p.updated, status: p.status, phase: p.phase, amount: p.amount, name: p.name, secrecy_level: p.secrecy,
    parties: p.parties?.map((name) => ({ name, side: 'Active' })),
    subjects: p.subjects?.map((code) => ({ code, name: `Assunto ${code}` })),
    steps: p.steps?.map(stepObject),
    attachments: p.attachments?.map((name) => ({ attachment_name: name })),
    last_step: p.lastStep === undefined ? undefined : { step_id: p.lastStep.id, steps_count: p.lastStep.count },
  });
}

const responseId = (i: number): string => `r${i}`;

/** The payloads as response items, each remembering its JSON text as the client's would. */
export function toItems(payloads: readonly Payload[]): ResponseItem[] {
  return payloads.map((p, i) => {
    const text = JSON.stringify({
      request_id: `q${p.request}`, response_id: responseId(i), response_type: 'lawsuit', created_at: p.created,
      response_data: lawsuitObject(p), tags: { cached_response: p.cached },
    });
    return rememberRawText(JSON.parse(text) as ResponseItem, text);
  });
}

// ---- The reference: the rule, written out over the payloads, with nothing of the loader's. ----

const instant = (t: Field<string>): number => (t == null ? -Infinity : Date.parse(t));

/** Newer first: crawl time, updated_at, the response's created_at, then the response id in byte order. */
function newer(a: [Payload, number], b: [Payload, number]): number {
  for (const f of [(p: Payload) => instant(p.crawled), (p: Payload) => instant(p.updated), (p: Payload) => instant(p.created)]) {
    const d = f(b[0]) - f(a[0]);
    if (d !== 0 && !Number.isNaN(d)) return d < 0 ? -1 : 1;
  }
  return Buffer.compare(Buffer.from(responseId(b[1])), Buffer.from(responseId(a[1])));
}

/** The value of the newest payload that carries it (not absent, not null), or null. */
function carried<T>(ps: ReadonlyArray<[Payload, number]>, get: (p: Payload) => Field<T>): T | null {
  const withIt = ps.filter(([p]) => get(p) != null).sort(newer);
  return withIt.length === 0 ? null : (get(withIt[0][0]) as T);
}

/** A lawsuit-level answer, not a header: it lists steps, or lists none with phase and status filled. */
function isWhole(p: Payload): boolean {
  return p.steps !== undefined && (p.steps.length > 0 || (p.phase != null && p.status != null));
}

/** A whole payload's newest step: the latest dated, the first listed among equals. */
function newestStep(p: Payload): string | null {
  let best: Step | undefined;
  for (const s of p.steps ?? []) if (best === undefined || instant(s.date) > instant(best.date)) best = s;
  return best?.id ?? null;
}

/** How far a payload says the lawsuit has gone: its last_step, else (whole) its newest step and steps listed. */
const lastStepId = (p: Payload): string | null => p.lastStep?.id ?? (isWhole(p) ? newestStep(p) : null);
const stepsCount = (p: Payload): number | null => p.lastStep?.count ?? (isWhole(p) ? p.steps!.length : null);

export function reference(payloads: readonly Payload[], plan: Plan) {
  const perNight = Math.ceil(plan.order.length / plan.nights);
  const nightsOf = (i: number): number[] => plan.order.flatMap((j, pos) => (j === i ? [Math.floor(pos / perNight)] : []));
  const indexed = payloads.map((p, i) => [p, i] as [Payload, number]);
  const keys = [...new Set(payloads.map((p) => p.key))].sort((x, y) => KEYS[x].code.localeCompare(KEYS[y].code) || KEYS[x].instance - KEYS[y].instance);
  type Row = Record<string, unknown>;
  const lawsuits: Row[] = []; const parties: Row[] = []; const subjects: Row[] = []; const steps: Row[] = []; const attachments: Row[] = [];
  for (const k of keys) {
    const ps = indexed.filter(([p]) => p.key === k);
    const wholes = ps.filter(([p]) => isWhole(p));
    const [newest] = [...ps].sort(newer);
    const nights = ps.flatMap(([, i]) => nightsOf(i));
    const amount = carried(ps, (p) => p.amount);
    const time = (t: string | null): number | null => (t === null ? null : Date.parse(t));
    lawsuits.push({
      ...KEYS[k],
      status: carried(ps, (p) => p.status), phase: carried(ps, (p) => p.phase),
      amount: amount === null ? null : amount.toFixed(2), name: carried(ps, (p) => p.name), secrecy_level: carried(ps, (p) => p.secrecy),
      crawled_at: time(carried(ps, (p) => p.crawled)), updated_at: time(carried(ps, (p) => p.updated)),
      response_id: responseId(newest[1]), raw: JSON.stringify(lawsuitObject(newest[0])),
      first_seen_run: `run-${Math.min(...nights)}`, last_seen_run: `run-${Math.max(...nights)}`,
      last_step_id: carried(ps, lastStepId), steps_count: carried(ps, stepsCount),
      whole_step_id: carried(wholes, lastStepId), whole_steps_count: carried(wholes, stepsCount),
      whole_at: time(carried(wholes, (p) => p.crawled ?? p.created)), whole_seen: wholes.length > 0 ? true : null,
    });
    // A header's empty attachments list says nothing; a whole payload's says "none now".
    (carried(ps, (p) => (isWhole(p) || (p.attachments?.length ?? 0) > 0 ? p.attachments : undefined)) ?? [])
      .forEach((name, attachment_index) => attachments.push({ ...KEYS[k], attachment_index, attachment_name: name }));
    (carried(ps, (p) => p.parties) ?? []).forEach((name, party_index) => parties.push({ ...KEYS[k], party_index, name }));
    for (const code of [...(carried(ps, (p) => p.subjects) ?? [])].sort()) subjects.push({ ...KEYS[k], item_code: code });
    const stepIds = [...new Set(ps.flatMap(([p]) => (p.steps ?? []).map((s) => s.id)))].sort();
    for (const id of stepIds) {
      const carrying = ps.filter(([p]) => p.steps?.some((s) => s.id === id));
      const step = (p: Payload): Step => p.steps!.find((s) => s.id === id)!;
      const date = carried(carrying, (p) => step(p).date);
      steps.push({
        ...KEYS[k], step_id: id, content: carried(carrying, (p) => step(p).content), step_date: date === null ? null : Date.parse(date),
        raw: JSON.stringify(stepObject(step([...carrying].sort(newer)[0][0]))),
      });
    }
  }
  const hits = new Map<string, { request_id: string; code: string; instance: number; response_id: string }>();
  for (const [p, i] of indexed) {
    const k = `q${p.request}|${p.key}`;
    const id = responseId(i);
    const held = hits.get(k);
    if (!held || Buffer.compare(Buffer.from(id), Buffer.from(held.response_id)) < 0) hits.set(k, { request_id: `q${p.request}`, ...KEYS[p.key], response_id: id });
  }
  const byAll = (x: Row, y: Row): number => {
    for (const f of Object.keys(x)) {
      const [u, v] = [x[f], y[f]];
      if (u === v) continue;
      if (u === null) return 1; // DuckDB's ORDER BY puts NULLs last
      if (v === null) return -1;
      return (u as string | number) < (v as string | number) ? -1 : 1;
    }
    return 0;
  };
  return {
    lawsuits, parties: parties.sort(byAll), subjects: subjects.sort(byAll), steps: steps.sort(byAll), attachments: attachments.sort(byAll),
    hits: [...hits.values()].sort(byAll),
  };
}
