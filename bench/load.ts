import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseResponsesPage } from '../src/api/responses.js';
import type { Lawsuit, ResponseItem } from '../src/spec/types.js';
import { loadResponseItems } from '../src/warehouse/load.js';
import { Warehouse } from '../src/warehouse/warehouse.js';

// How fast loadResponseItems is next to DuckDB loading the same pages by itself: read_json of the NDJSON
// pages, flattening in SQL (from_json + unnest) into the same tables. The project's target is a ratio of at
// least 0.5. Each side starts from an empty warehouse file and ends with its data checkpointed into it.

export interface BenchSide {
  /** Best wall time over the repeats, ms. */
  ms: number;
  /** Process CPU time (all threads, DuckDB's included) of that best repeat, ms: steadier than wall time on a busy machine. */
  cpuMs: number;
  lawsuitsPerSec: number;
  rows: Record<string, number>;
}
export interface BenchResult { lawsuits: number; batchSize: number; repeats: number; ours: BenchSide; duckdb: BenchSide; ratio: number }

export interface BenchOptions {
  /** Items per loadResponseItems batch. Default 1000. */
  batchSize?: number;
  /** DuckDB threads for both sides. Default DuckDB's own. */
  threads?: number;
  /** Runs of each side, alternated, the best kept (a benchmark on a shared machine measures its neighbours too). Default 3. */
  repeats?: number;
}

const COUNTED = ['lawsuits', 'parties', 'lawyers', 'steps', 'subjects', 'classifications', 'courts', 'attachments', 'search_hits', 'responses_raw'];

export async function benchLoad(nLawsuits: number, makeItem: (i: number) => ResponseItem = makeBenchItem, opts: BenchOptions = {}): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-'));
  try {
    const lines = Array.from({ length: nLawsuits }, (_, i) => JSON.stringify(makeItem(i)));
    const file = join(dir, 'pages.ndjson');
    writeFileSync(file, lines.join('\n') + '\n');
    const items = asReceived(lines);
    const batchSize = opts.batchSize ?? 1000;
    const repeats = Math.max(1, opts.repeats ?? 3);
    let ours: BenchSide | undefined;
    let duckdb: BenchSide | undefined;
    for (let r = 0; r < repeats; r++) {
      const o = await timed(join(dir, `ours-${r}.duckdb`), opts.threads, (wh) => loadResponseItems(wh, items, { runId: 'bench', batchSize }));
      const d = await timed(join(dir, `duckdb-${r}.duckdb`), opts.threads, (wh) => wh.transaction(async () => {
        for (const sql of readJsonLoadSql(file)) await wh.run(sql);
      }));
      if (!ours || o.ms < ours.ms) ours = o;
      if (!duckdb || d.ms < duckdb.ms) duckdb = d;
    }
    return { lawsuits: nLawsuits, batchSize, repeats, ours: ours!, duckdb: duckdb!, ratio: Math.round((ours!.lawsuitsPerSec / duckdb!.lawsuitsPerSec) * 100) / 100 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface MergeBench { lawsuits: number; ms: number; lawsuitsPerSec: number }

/**
 * A second night over the same lawsuits: each comes again from a newer crawl with one step's text changed, so
 * every lawsuit is merged with the one the warehouse holds (the first night only inserts). Timed from the second
 * load's start until its data is checkpointed; the best of `repeats`.
 */
export async function benchMerge(nLawsuits: number, repeats = 2): Promise<MergeBench> {
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-merge-'));
  try {
    const first = asReceived(Array.from({ length: nLawsuits }, (_, i) => JSON.stringify(makeBenchItem(i))));
    const second = asReceived(Array.from({ length: nLawsuits }, (_, i) => JSON.stringify(newerCrawl(makeBenchItem(i)))));
    let best: MergeBench | undefined;
    for (let r = 0; r < repeats; r++) {
      const wh = await Warehouse.open(join(dir, `merge-${r}.duckdb`));
      try {
        await loadResponseItems(wh, first, { runId: 'bench-1' });
        await wh.run('CHECKPOINT');
        const t = performance.now();
        await loadResponseItems(wh, second, { runId: 'bench-2' });
        await wh.run('CHECKPOINT');
        const ms = performance.now() - t;
        if (!best || ms < best.ms) best = { lawsuits: nLawsuits, ms: Math.round(ms), lawsuitsPerSec: Math.round((nLawsuits / ms) * 1000) };
      } finally {
        await wh.close();
      }
    }
    return best!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same lawsuit from a later crawl, in another response, with its last step's text changed. */
function newerCrawl(item: ResponseItem): ResponseItem {
  const l = item.response_data as Lawsuit;
  const steps = (l.steps ?? []).map((s, k, all) => (k === all.length - 1 ? { ...s, content: `${s.content} (retificado)` } : s));
  return {
    ...item, response_id: `${item.response_id}-n2`, created_at: '2022-03-01T00:00:00.000Z',
    response_data: { ...l, steps, crawler: { ...l.crawler, updated_at: '2022-03-01T00:00:00.000Z' } } as Lawsuit,
  };
}

/**
 * The items as the API client hands them to the loader: parsed from pages of 100 as the service sends them,
 * each remembering its text (shared/raw-json.ts). Parsing is the client's work, outside the timed load.
 */
export function asReceived(lines: readonly string[]): ResponseItem[] {
  const out: ResponseItem[] = [];
  for (let i = 0; i < lines.length; i += 100) {
    const chunk = lines.slice(i, i + 100);
    const page = `{"request_status":"completed","page":${i / 100 + 1},"page_count":${chunk.length},"all_pages_count":${Math.ceil(lines.length / 100)},`
      + `"all_count":${lines.length},"page_data":[${chunk.join(',')}]}`;
    out.push(...parseResponsesPage(page).items);
  }
  return out;
}

async function timed(path: string, threads: number | undefined, load: (wh: Warehouse) => Promise<unknown>): Promise<BenchSide> {
  const wh = await Warehouse.open(path, { threads });
  try {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await load(wh);
    // Until the data is checkpointed into the file part of the work is still owed: both sides pay it in time.
    await wh.run('CHECKPOINT');
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const rows = await rowCounts(wh);
    return { ms: Math.round(ms), cpuMs: Math.round((used.user + used.system) / 1000), lawsuitsPerSec: Math.round((rows.lawsuits / ms) * 1000), rows };
  } finally {
    await wh.close();
  }
}

async function rowCounts(wh: Warehouse): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of COUNTED) out[t] = (await wh.all<{ n: number }>(`SELECT count(*) n FROM ${t}`))[0].n;
  return out;
}

const DOC = '[{"document":"VARCHAR","document_type":"VARCHAR"}]';
const SHAPE = `{"code":"VARCHAR","instance":"INTEGER","lawsuit_id":"VARCHAR","tribunal_acronym":"VARCHAR","justice":"VARCHAR",
"justice_description":"VARCHAR","tribunal":"VARCHAR","area":"VARCHAR","state":"VARCHAR","city":"VARCHAR","county":"VARCHAR",
"distribution_date":"VARCHAR","amount":"DOUBLE","status":"VARCHAR","phase":"VARCHAR","secrecy_level":"INTEGER",
"free_justice":"BOOLEAN","name":"VARCHAR","created_at":"VARCHAR","updated_at":"VARCHAR",
"crawler":{"source_name":"VARCHAR","crawl_id":"VARCHAR","updated_at":"VARCHAR"},
"last_step":{"step_date":"VARCHAR","steps_count":"INTEGER"},
"parties":[{"name":"VARCHAR","side":"VARCHAR","person_type":"VARCHAR","document":"VARCHAR","document_type":"VARCHAR",
  "main_document":"VARCHAR","documents":${DOC},
  "lawyers":[{"name":"VARCHAR","side":"VARCHAR","person_type":"VARCHAR","oab":"VARCHAR","documents":${DOC}}]}],
"steps":[{"step_id":"VARCHAR","step_date":"VARCHAR","content":"VARCHAR","private":"BOOLEAN","step_type":"VARCHAR"}],
"subjects":[{"code":"VARCHAR","name":"VARCHAR"}],"classifications":[{"code":"VARCHAR","name":"VARCHAR"}],
"courts":[{"code":"VARCHAR","name":"VARCHAR"}],"attachments":[{"attachment_date":"VARCHAR","attachment_name":"VARCHAR"}]}`.replace(/\s+/g, '');

/** DuckDB on its own: the same tables from the NDJSON file, flattened in SQL. */
export function readJsonLoadSql(file: string): string[] {
  const path = file.replace(/'/g, "''");
  const ts = (e: string): string => `TRY_CAST(${e} AS TIMESTAMPTZ)`;
  return [
    `CREATE OR REPLACE TEMP TABLE b_src AS
     SELECT json AS item, json->>'$.response_id' AS response_id, json->>'$.request_id' AS request_id,
       json->>'$.response_type' AS response_type, json->>'$.created_at' AS created_at, json->'$.response_data' AS raw,
       from_json(json->'$.response_data', '${SHAPE}') AS d
     FROM read_ndjson_objects('${path}')`,
    `INSERT INTO responses_raw SELECT response_id, request_id, response_type, ${ts('created_at')}, item, 'bench', current_timestamp FROM b_src`,
    `CREATE OR REPLACE TEMP TABLE b_l AS SELECT * FROM b_src WHERE response_type = 'lawsuit'
     QUALIFY row_number() OVER (PARTITION BY d.code, d.instance ORDER BY d.crawler.updated_at DESC NULLS LAST, created_at DESC) = 1`,
    `INSERT INTO lawsuits (code, instance, lawsuit_id, tribunal_acronym, justice, justice_description, tribunal, area, state, city,
       county, distribution_date, amount, status, phase, secrecy_level, free_justice, name, created_at, updated_at, crawl_id,
       crawler_source, crawled_at, last_step_date, steps_count, response_id, response_created_at, source, first_seen_run,
       last_seen_run, loaded_at, raw)
     SELECT d.code, d.instance, d.lawsuit_id, d.tribunal_acronym, d.justice, d.justice_description, d.tribunal, d.area, d.state,
       d.city, d.county, ${ts('d.distribution_date')}, TRY_CAST(d.amount AS DECIMAL(18,2)), d.status, d.phase, d.secrecy_level,
       d.free_justice, d.name, ${ts('d.created_at')}, ${ts('d.updated_at')}, d.crawler.crawl_id, d.crawler.source_name,
       ${ts('d.crawler.updated_at')}, ${ts('d.last_step.step_date')}, d.last_step.steps_count, response_id, ${ts('created_at')},
       'async', 'bench', 'bench', current_timestamp, raw
     FROM b_l`,
    `INSERT INTO parties (code, instance, party_index, name, side, person_type, document, document_type, main_document, documents, raw)
     SELECT code, instance, i - 1, p.name, p.side, p.person_type, regexp_replace(p.document, '[^0-9A-Za-z]', '', 'g'), p.document_type,
       regexp_replace(p.main_document, '[^0-9A-Za-z]', '', 'g'), to_json(p.documents), to_json(p)
     FROM (SELECT d.code, d.instance, unnest(d.parties) p, generate_subscripts(d.parties, 1) i FROM b_l)`,
    `INSERT INTO lawyers (code, instance, party_index, lawyer_index, name, side, oab, person_type, documents)
     SELECT code, instance, pi - 1, li - 1, w.name, coalesce(w.side, side), w.oab, w.person_type, to_json(w.documents)
     FROM (SELECT code, instance, pi, side, unnest(lawyers) w, generate_subscripts(lawyers, 1) li
           FROM (SELECT d.code, d.instance, unnest(d.parties) p, generate_subscripts(d.parties, 1) pi FROM b_l)
           CROSS JOIN LATERAL (SELECT p.lawyers lawyers, p.side side))`,
    `INSERT INTO steps (code, instance, step_id, step_id_derived, step_date, content, private, step_type, raw)
     SELECT DISTINCT ON (code, instance, 3) code, instance, coalesce(s.step_id, 'h_' || md5(coalesce(s.step_date, '') || coalesce(s.content, ''))), s.step_id IS NULL,
       ${ts('s.step_date')}, s.content, s.private, s.step_type, to_json(s)
     FROM (SELECT d.code, d.instance, unnest(d.steps) s FROM b_l)`,
    `INSERT INTO subjects SELECT DISTINCT ON (code, instance, s.code) code, instance, s.code, s.name FROM (SELECT d.code, d.instance, unnest(d.subjects) s FROM b_l) WHERE s.code IS NOT NULL`,
    `INSERT INTO classifications SELECT DISTINCT ON (code, instance, s.code) code, instance, s.code, s.name FROM (SELECT d.code, d.instance, unnest(d.classifications) s FROM b_l) WHERE s.code IS NOT NULL`,
    `INSERT INTO courts SELECT code, instance, i - 1, c.code, c.name FROM (SELECT d.code, d.instance, unnest(d.courts) c, generate_subscripts(d.courts, 1) i FROM b_l)`,
    `INSERT INTO attachments (code, instance, attachment_id, attachment_id_derived, name, attachment_date, raw)
     SELECT DISTINCT ON (code, instance, 3) code, instance, 'h_' || left(sha256(coalesce(a.attachment_date, '') || chr(31) || coalesce(a.attachment_name, '')), 32), true,
       a.attachment_name, ${ts('a.attachment_date')}, to_json(a)
     FROM (SELECT d.code, d.instance, unnest(d.attachments) a FROM b_l)`,
    `INSERT INTO search_hits (request_id, code, instance, response_id, first_seen_at)
     SELECT request_id, d.code, d.instance, any_value(response_id), current_timestamp FROM b_src
     WHERE response_type = 'lawsuit' GROUP BY ALL`,
  ];
}

/** A realistic lawsuit item: 4 parties with 2 lawyers each, 25 steps, subjects, a class, a court, an attachment. */
export function makeBenchItem(i: number): ResponseItem {
  const code = `${String(i).padStart(7, '0')}-${String(i % 97).padStart(2, '0')}.2021.8.26.${String(i % 10000).padStart(4, '0')}`;
  const day = (k: number): string => new Date(Date.UTC(2021, 0, 1 + k)).toISOString();
  const lawsuit: Lawsuit = {
    code, instance: 1, justice: '8', tribunal: '26', tribunal_acronym: 'TJSP', distribution_date: day(i % 300), secrecy_level: 0,
    amount: 1000 + (i % 5000) + 0.5, area: 'Civel', state: 'SP', city: 'Sao Paulo', county: 'Sao Paulo', justice_description: 'Estadual',
    phase: 'Inicial', status: 'Ativo', name: `Autor ${i} x Reu ${i}`, free_justice: i % 2 === 0,
    tags: { crawl_id: `c${i}` }, crawler: { source_name: 'esaj', crawl_id: `c${i}`, weight: 1, updated_at: day(400) },
    subjects: [{ code: '7698', name: 'Perdas e Danos' }, { code: '10433', name: 'Indenizacao por Dano Moral' }],
    classifications: [{ code: '7', name: 'Procedimento Comum Civel' }],
    courts: [{ code: '0100', name: '1a Vara Civel' }],
    parties: Array.from({ length: 4 }, (_, p) => ({
      name: `Parte ${i}-${p}`, side: p % 2 ? 'Passive' : 'Active', person_type: p % 2 ? 'Réu' : 'Autor',
      document: String(10000000000 + i * 4 + p), document_type: 'CPF', main_document: String(10000000000 + i * 4 + p),
      documents: [{ document: String(10000000000 + i * 4 + p), document_type: 'CPF' }],
      lawyers: [{ name: `Adv ${p}a`, side: p % 2 ? 'Passive' : 'Active', oab: `${100000 + p}SP` }, { name: `Adv ${p}b`, documents: [{ document: `SP${200000 + p}`, document_type: 'OAB' }] }],
    })),
    steps: Array.from({ length: 25 }, (_, s) => ({
      step_id: `${i}-${s}`, step_date: day(s * 7), content: `Movimento ${s} do processo ${code}: juntada de peticao e conclusao ao juiz`,
      private: false, step_type: String(26 + s), lawsuit_cnj: code, lawsuit_instance: 1,
    })),
    attachments: [{ attachment_date: day(10), attachment_name: 'inicial.pdf' }],
    last_step: { step_date: day(24 * 7), steps_count: 25 },
    related_lawsuits: [], metadata: {},
  };
  return {
    request_id: `req-${i % 50}`, response_id: `resp-${i}`, origin: 'api', response_type: 'lawsuit', response_data: lawsuit,
    created_at: day(401), request_status: 'completed', tags: { cached_response: false },
  };
}
