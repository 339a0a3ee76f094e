// The set-based merges from the staging tables into the warehouse. Each is one statement over the whole batch;
// the batch has already been deduplicated by key, so no statement meets the same row twice. Which columns each
// statement carries, and how a merge treats a value the payload leaves out, come from the schema declaration
// (schema/): a column added there is staged, merged and inserted with no edit here.

import { SCHEMA, tableOf } from './schema/index.js';
import { ident } from './schema/sql.js';
import { listFlags } from './schema/staging.js';
import type { Column, Schema, Table } from './schema/types.js';
import { stageName } from './stage.js';

const ts = (c: string): string => `TRY_CAST(s.${c} AS TIMESTAMPTZ)`;
const ver = (a: string, b: string, c: string): string =>
  `(coalesce(${a}, '-infinity'::TIMESTAMPTZ), coalesce(${b}, '-infinity'::TIMESTAMPTZ), coalesce(${c}, '-infinity'::TIMESTAMPTZ))`;

/** The columns a load writes: those staged and those with a value of their own at load. */
const loaded = (t: Table): Column[] => t.columns.filter((c) => c.stage !== undefined || c.load !== undefined);

/** The warehouse value of a column, from the staged row `s`: staged text is cast to the column's type. */
function valueOf(c: Column): string {
  if (c.load !== undefined) return c.load;
  if (c.stage !== undefined && c.stage !== c.type) return `TRY_CAST(s.${ident(c.name)} AS ${c.type})`;
  return `s.${ident(c.name)}`;
}

/** The merged value of a column of a stored row `k` replaced by a winning payload (schema/types.ts, MergeRule). */
function mergedOf(c: Column): string {
  if (c.merge === 'keep') return `coalesce(${valueOf(c)}, k.${ident(c.name)})`;
  if (c.merge === 'first') return `k.${ident(c.name)}`;
  return valueOf(c);
}

const names = (cols: readonly Column[]): string => cols.map((c) => ident(c.name)).join(', ');
const keyJoin = (t: Table, a: string, b: string): string => (t.key ?? []).map((k) => `${a}.${ident(k)} = ${b}.${ident(k)}`).join(' AND ');

export interface ChildStatements { table: string; flag: string; del: string; ins: string }

/** Every merge statement of `schema`, as load.ts runs them. */
export function mergeStatements(schema: Schema = SCHEMA) {
  const lawsuits = tableOf('lawsuits', schema);
  const steps = tableOf('steps', schema);
  const children = schema.tables.filter((t) => t.stage?.list);
  const flags = listFlags(schema);
  const lawsuitCols = loaded(lawsuits);
  const kept = lawsuits.columns.filter((c) => lawsuits.key!.includes(c.name) || c.merge === 'keep' || c.merge === 'first');
  const winnersFrom = 'FROM stg_lawsuits s JOIN stg_win w ON w.code = s.code AND w.instance = s.instance';
  const stepCols = loaded(steps);
  const insertSteps = `INSERT INTO steps (${names(stepCols)})`;
  const selectStagedSteps = `SELECT ${stepCols.map(valueOf).join(', ')}\nFROM stg_steps s`;
  /** Rows of `t` whose key is new: a row written once (raw responses, search hits) is never merged. */
  const insertNew = (t: Table): string => `
INSERT INTO ${t.name} (${names(loaded(t))})
SELECT ${loaded(t).map(valueOf).join(', ')}
FROM ${stageName(t.stage!.as)} s ANTI JOIN ${t.name} r ON ${keyJoin(t, 'r', 's')}`;

  return {
    /**
     * Which incoming lawsuits win over the stored one: newer-or-equal crawl (crawler.updated_at, then updated_at,
     * then the response's created_at; README, "Spec gaps"). Equal wins, so reloading the same payload is a no-op.
     */
    winners: `
CREATE OR REPLACE TEMP TABLE stg_win AS
SELECT s.code, s.instance,
  (l.code IS NULL OR ${ver(ts('crawled_at'), ts('updated_at'), ts('response_created_at'))}
     >= ${ver('l.crawled_at', 'l.updated_at', 'l.response_created_at')}) AS wins,
  l.code IS NOT NULL AS existed,
  ${flags.map((f) => `s.${f}`).join(', ')}
FROM stg_lawsuits s LEFT JOIN lawsuits l ON l.code = s.code AND l.instance = s.instance`,
    // A lawsuit the warehouse holds is replaced, not updated: the stored values a merge may keep are set aside,
    // the row deleted, and the merged row (the newer payload's value, or the stored one where the payload leaves
    // it out) inserted. An UPDATE of the raw JSON column was what broke a second night: DuckDB keeps an UPDATE's
    // new strings and pins the column's rows at COMMIT, and 1,000 lawsuits of 34 KB updated at 128 MB failed
    // there (a first night of the same lawsuits loads fine, since appends and deletes are what DuckDB does
    // cheaply). Measured on DuckDB 1.5.5. (Upserts are not one INSERT ... ON CONFLICT DO UPDATE either: that
    // path made COMMIT some 7x slower.)
    replaceLawsuits: [
      `CREATE OR REPLACE TEMP TABLE stg_kept AS
SELECT ${kept.map((c) => `l.${ident(c.name)}`).join(', ')} FROM lawsuits l JOIN stg_win w ON w.code = l.code AND w.instance = l.instance WHERE w.wins AND w.existed`,
      'DELETE FROM lawsuits USING stg_win w WHERE lawsuits.code = w.code AND lawsuits.instance = w.instance AND w.wins AND w.existed',
    ],
    insertLawsuits: `
INSERT INTO lawsuits (${names(lawsuitCols)})
SELECT ${lawsuitCols.map(valueOf).join(', ')}
${winnersFrom}
WHERE w.wins AND NOT w.existed
ON CONFLICT DO NOTHING`,
    /** The replaced lawsuits back, each column merged with what was kept. */
    insertReplacedLawsuits: `
INSERT INTO lawsuits (${names(lawsuitCols)})
SELECT ${lawsuitCols.map(mergedOf).join(', ')}
${winnersFrom} JOIN stg_kept k ON k.code = s.code AND k.instance = s.instance
WHERE w.wins AND w.existed`,
    /** An older payload changes nothing but the fact that this run saw the lawsuit. */
    touchLosers: `
UPDATE lawsuits SET last_seen_run = s.run_id
FROM stg_lawsuits s JOIN stg_win w ON w.code = s.code AND w.instance = s.instance
WHERE NOT w.wins AND lawsuits.code = s.code AND lawsuits.instance = s.instance`,
    /**
     * Lists that are replaced whole per lawsuit: only when the winning payload carries the list at all (an absent
     * list says nothing, an empty one says "none now"). [delete, insert] pairs in order.
     */
    children: children.map((t): ChildStatements => ({
      table: t.name, flag: t.stage!.list!,
      del: `DELETE FROM ${t.name} USING stg_win w WHERE ${t.name}.code = w.code AND ${t.name}.instance = w.instance AND w.wins AND w.${t.stage!.list}`,
      ins: `INSERT INTO ${t.name} (${names(loaded(t))})
SELECT ${loaded(t).map(valueOf).join(', ')}
FROM ${stageName(t.stage!.as)} s JOIN stg_win w ON w.code = s.code AND w.instance = s.instance WHERE w.wins AND w.${t.stage!.list}`,
    })),
    /**
     * Steps are a union over every payload seen: a document search that omits steps removes none. A winning
     * payload updates the steps it carries (a column whose rule is `keep` keeps its value where the payload
     * leaves it out); any payload adds the steps the warehouse has never seen.
     */
    mergeSteps: [
      // The stored steps a winning payload changes, set aside, deleted and inserted merged (as lawsuits are, and
      // for the same reason: 300,000 steps whose text changed, updated in place, ran DuckDB out of 128 MB at
      // COMMIT and left it unable even to roll back). The stored steps of the batch's lawsuits are read first
      // with a semi-join that streams the big table (an anti-join straight against steps would hash the whole).
      `CREATE OR REPLACE TEMP TABLE stg_steps_kept AS
WITH held AS MATERIALIZED (
  SELECT s.* FROM steps s SEMI JOIN (SELECT code, instance FROM stg_win WHERE wins AND existed) w ON s.code = w.code AND s.instance = w.instance)
SELECT h.* FROM held h JOIN stg_steps c ON c.code = h.code AND c.instance = h.instance AND c.step_id = h.step_id
WHERE h.raw::VARCHAR IS DISTINCT FROM c.raw::VARCHAR`,
      'DELETE FROM steps USING stg_steps_kept k WHERE steps.code = k.code AND steps.instance = k.instance AND steps.step_id = k.step_id',
      `${insertSteps}
SELECT ${stepCols.map(mergedOf).join(', ')}
FROM stg_steps s JOIN stg_steps_kept k ON k.code = s.code AND k.instance = s.instance AND k.step_id = s.step_id`,
      `${insertSteps}
WITH held AS MATERIALIZED (
  SELECT h.code, h.instance, h.step_id FROM steps h SEMI JOIN stg_win w ON h.code = w.code AND h.instance = w.instance)
${selectStagedSteps} ANTI JOIN held h ON h.code = s.code AND h.instance = s.instance AND h.step_id = s.step_id`,
    ],
    /** The steps of a batch none of whose lawsuits the warehouse held: nothing to merge with. */
    insertNewSteps: `${insertSteps}\n${selectStagedSteps}`,
    insertResponses: insertNew(tableOf('responses_raw', schema)),
    insertHits: insertNew(tableOf('search_hits', schema)),
  };
}

const M = mergeStatements();
export const WINNERS_SQL = M.winners;
export const REPLACE_LAWSUITS_SQL = M.replaceLawsuits;
export const INSERT_LAWSUITS_SQL = M.insertLawsuits;
export const INSERT_REPLACED_LAWSUITS_SQL = M.insertReplacedLawsuits;
export const TOUCH_LOSERS_SQL = M.touchLosers;
export const MERGE_STEPS_SQL = M.mergeSteps;
export const INSERT_NEW_STEPS_SQL = M.insertNewSteps;
export const INSERT_RESPONSES_SQL = M.insertResponses;
export const INSERT_HITS_SQL = M.insertHits;
export const replaceChildrenSql = (): ChildStatements[] => M.children;

// Texts too long for a column, in parts (long-values.ts). A response item is written once, so are its parts; a
// lawsuit's raw follows the winning payload: its parts are replaced whenever the lawsuit is.
export const INSERT_RESPONSE_PARTS_SQL = `
INSERT INTO raw_parts (owner, response_id, code, instance, part, text)
SELECT p.owner, p.response_id, NULL, NULL, p.part, p.text
FROM stg_parts p ANTI JOIN responses_raw r ON r.response_id = p.response_id
WHERE p.owner = 'responses_raw.item'`;

export const DELETE_LAWSUIT_PARTS_SQL = `
DELETE FROM raw_parts USING stg_win w
WHERE raw_parts.owner = 'lawsuits.raw' AND raw_parts.code = w.code AND raw_parts.instance = w.instance AND w.wins AND w.existed`;

export const INSERT_LAWSUIT_PARTS_SQL = `
INSERT INTO raw_parts (owner, response_id, code, instance, part, text)
SELECT p.owner, NULL, p.code, p.instance, p.part, p.text
FROM stg_parts p JOIN stg_win w ON w.code = p.code AND w.instance = p.instance
WHERE p.owner = 'lawsuits.raw' AND w.wins`;
