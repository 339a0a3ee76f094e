// The set-based merges from the staging tables into the warehouse. Each is one statement over the whole batch;
// the batch has already been deduplicated by key, so no statement meets the same row twice.

const ts = (c: string): string => `TRY_CAST(s.${c} AS TIMESTAMPTZ)`;
const ver = (a: string, b: string, c: string): string =>
  `(coalesce(${a}, '-infinity'::TIMESTAMPTZ), coalesce(${b}, '-infinity'::TIMESTAMPTZ), coalesce(${c}, '-infinity'::TIMESTAMPTZ))`;

/**
 * Which incoming lawsuits win over the stored one: newer-or-equal crawl (crawler.updated_at, then updated_at,
 * then the response's created_at; README, "Spec gaps"). Equal wins, so reloading the same payload is a no-op.
 */
export const WINNERS_SQL = `
CREATE OR REPLACE TEMP TABLE stg_win AS
SELECT s.code, s.instance,
  (l.code IS NULL OR ${ver(ts('crawled_at'), ts('updated_at'), ts('response_created_at'))}
     >= ${ver('l.crawled_at', 'l.updated_at', 'l.response_created_at')}) AS wins,
  l.code IS NOT NULL AS existed,
  s.has_parties, s.has_steps, s.has_subjects, s.has_classifications, s.has_courts, s.has_attachments
FROM stg_lawsuits s LEFT JOIN lawsuits l ON l.code = s.code AND l.instance = s.instance`;

/** Columns a newer payload may leave out (document searches omit phase, status, ...): the stored value stays. */
const KEEP_IF_MISSING = ['lawsuit_id', 'tribunal_acronym', 'justice', 'justice_description', 'tribunal', 'area', 'state',
  'city', 'county', 'distribution_date', 'amount', 'status', 'phase', 'secrecy_level', 'free_justice', 'name', 'created_at',
  'updated_at', 'crawl_id', 'crawler_source', 'crawled_at', 'last_step_date', 'steps_count'];
/** Columns that always describe the winning payload itself. */
const FROM_WINNER = ['response_id', 'response_created_at', 'cached_response', 'source', 'last_seen_run', 'loaded_at', 'raw'];
const TIMESTAMPS = new Set(['distribution_date', 'created_at', 'updated_at', 'crawled_at', 'last_step_date', 'response_created_at']);

/** The warehouse value of each lawsuit column, from the staged text. */
function lawsuitValue(c: string): string {
  if (TIMESTAMPS.has(c)) return ts(c);
  if (c === 'amount') return 'TRY_CAST(s.amount AS DECIMAL(18,2))';
  if (c === 'last_seen_run' || c === 'first_seen_run') return 's.run_id';
  if (c === 'loaded_at') return 'current_timestamp';
  return `s.${c}`;
}

const WINNERS_FROM = `FROM stg_lawsuits s JOIN stg_win w ON w.code = s.code AND w.instance = s.instance`;

// A lawsuit the warehouse holds is replaced, not updated: its stored values are set aside, the row deleted, and
// the merged row (the newer payload's value, or the stored one where the payload leaves it out) inserted. An
// UPDATE of the raw JSON column was what broke a second night: DuckDB keeps an UPDATE's new strings and pins
// the column's rows at COMMIT, and 1,000 lawsuits of 34 KB updated at 128 MB failed there (a first night of the
// same lawsuits loads fine, since appends and deletes are what DuckDB does cheaply). Measured on DuckDB 1.5.5.
// (Upserts are not one INSERT ... ON CONFLICT DO UPDATE either: that path made COMMIT some 7x slower.)
export const REPLACE_LAWSUITS_SQL = [
  `CREATE OR REPLACE TEMP TABLE stg_kept AS
SELECT l.* EXCLUDE (raw) FROM lawsuits l JOIN stg_win w ON w.code = l.code AND w.instance = l.instance WHERE w.wins AND w.existed`,
  `DELETE FROM lawsuits USING stg_win w WHERE lawsuits.code = w.code AND lawsuits.instance = w.instance AND w.wins AND w.existed`,
];
const INSERT_COLUMNS = ['code', 'instance', ...KEEP_IF_MISSING, ...FROM_WINNER, 'first_seen_run'];
export const INSERT_LAWSUITS_SQL = `
INSERT INTO lawsuits (${INSERT_COLUMNS.join(', ')})
SELECT ${INSERT_COLUMNS.map(lawsuitValue).join(', ')}
${WINNERS_FROM}
WHERE w.wins AND NOT w.existed
ON CONFLICT DO NOTHING`;

/** The replaced lawsuits (REPLACE_LAWSUITS_SQL) back, each column merged with what was kept. */
export const INSERT_REPLACED_LAWSUITS_SQL = `
INSERT INTO lawsuits (${INSERT_COLUMNS.join(', ')})
SELECT ${INSERT_COLUMNS.map((c) => (KEEP_IF_MISSING.includes(c) ? `coalesce(${lawsuitValue(c)}, k.${c})` : c === 'first_seen_run' ? 'k.first_seen_run' : lawsuitValue(c))).join(', ')}
${WINNERS_FROM} JOIN stg_kept k ON k.code = s.code AND k.instance = s.instance
WHERE w.wins AND w.existed`;

/** An older payload changes nothing but the fact that this run saw the lawsuit. */
export const TOUCH_LOSERS_SQL = `
UPDATE lawsuits SET last_seen_run = s.run_id
FROM stg_lawsuits s JOIN stg_win w ON w.code = s.code AND w.instance = s.instance
WHERE NOT w.wins AND lawsuits.code = s.code AND lawsuits.instance = s.instance`;

type ChildTable = 'parties' | 'lawyers' | 'subjects' | 'classifications' | 'courts' | 'attachments';
type Flag = 'has_parties' | 'has_subjects' | 'has_classifications' | 'has_courts' | 'has_attachments';
interface ChildSpec { table: ChildTable; flag: Flag; columns: string[]; select: string[] }

const CHILDREN: ChildSpec[] = [
  { table: 'parties', flag: 'has_parties',
    columns: ['code', 'instance', 'party_index', 'name', 'side', 'person_type', 'document', 'document_type', 'main_document', 'documents', 'raw'],
    select: ['code', 'instance', 'party_index', 'name', 'side', 'person_type', 'document', 'document_type', 'main_document', 'c.documents::JSON', 'c.raw::JSON'] },
  { table: 'lawyers', flag: 'has_parties',
    columns: ['code', 'instance', 'party_index', 'lawyer_index', 'name', 'side', 'oab', 'person_type', 'documents'],
    select: ['code', 'instance', 'party_index', 'lawyer_index', 'name', 'side', 'oab', 'person_type', 'c.documents::JSON'] },
  { table: 'subjects', flag: 'has_subjects', columns: ['code', 'instance', 'item_code', 'item_name'], select: ['code', 'instance', 'item_code', 'item_name'] },
  { table: 'classifications', flag: 'has_classifications', columns: ['code', 'instance', 'item_code', 'item_name'], select: ['code', 'instance', 'item_code', 'item_name'] },
  { table: 'courts', flag: 'has_courts', columns: ['code', 'instance', 'court_index', 'court_code', 'court_name'], select: ['code', 'instance', 'court_index', 'court_code', 'court_name'] },
  { table: 'attachments', flag: 'has_attachments',
    columns: ['code', 'instance', 'attachment_index', 'attachment_date', 'attachment_name', 'raw'],
    select: ['code', 'instance', 'attachment_index', 'TRY_CAST(c.attachment_date AS TIMESTAMPTZ)', 'attachment_name', 'c.raw::JSON'] },
];

/**
 * Lists that are replaced whole per lawsuit: only when the winning payload carries the list at all (an absent
 * list says nothing, an empty one says "none now"). Returns [delete, insert] pairs in order.
 */
export function replaceChildrenSql(): Array<{ table: ChildTable; flag: Flag; del: string; ins: string }> {
  return CHILDREN.map(({ table, flag, columns, select }) => ({
    table, flag,
    del: `DELETE FROM ${table} USING stg_win w WHERE ${table}.code = w.code AND ${table}.instance = w.instance AND w.wins AND w.${flag}`,
    ins: `INSERT INTO ${table} (${columns.join(', ')})
SELECT ${select.map((c) => (/^[a-z_]+$/.test(c) ? `c.${c}` : c)).join(', ')}
FROM stg_${table} c JOIN stg_win w ON w.code = c.code AND w.instance = c.instance WHERE w.wins AND w.${flag}`,
  }));
}

/**
 * Steps are a union over every payload seen: a document search that omits steps removes none. A winning
 * payload updates the steps it carries (a field it leaves out keeps its value); any payload adds the steps
 * the warehouse has never seen.
 */
const INSERT_STEPS = 'INSERT INTO steps (code, instance, step_id, step_id_derived, step_date, content, private, step_type, raw)';
const SELECT_STAGED_STEPS = `SELECT c.code, c.instance, c.step_id, c.step_id_derived, TRY_CAST(c.step_date AS TIMESTAMPTZ), c.content, c.private,
  c.step_type, c.raw
FROM stg_steps c`;

export const MERGE_STEPS_SQL = [
  // The stored steps a winning payload changes, set aside, deleted and inserted merged (as lawsuits are, and
  // for the same reason: 300,000 steps whose text changed, updated in place, ran DuckDB out of 128 MB at COMMIT
  // and left it unable even to roll back). The stored steps of the batch's lawsuits are read first with a
  // semi-join that streams the big table (an anti-join straight against steps would hash the whole of it).
  `CREATE OR REPLACE TEMP TABLE stg_steps_kept AS
WITH held AS MATERIALIZED (
  SELECT s.* FROM steps s SEMI JOIN (SELECT code, instance FROM stg_win WHERE wins AND existed) w ON s.code = w.code AND s.instance = w.instance)
SELECT h.* FROM held h JOIN stg_steps c ON c.code = h.code AND c.instance = h.instance AND c.step_id = h.step_id
WHERE h.raw::VARCHAR IS DISTINCT FROM c.raw::VARCHAR`,
  'DELETE FROM steps USING stg_steps_kept k WHERE steps.code = k.code AND steps.instance = k.instance AND steps.step_id = k.step_id',
  `${INSERT_STEPS}
SELECT c.code, c.instance, c.step_id, c.step_id_derived, coalesce(TRY_CAST(c.step_date AS TIMESTAMPTZ), k.step_date),
  coalesce(c.content, k.content), coalesce(c.private, k.private), coalesce(c.step_type, k.step_type), c.raw
FROM stg_steps c JOIN stg_steps_kept k ON k.code = c.code AND k.instance = c.instance AND k.step_id = c.step_id`,
  `${INSERT_STEPS}
WITH held AS MATERIALIZED (
  SELECT s.code, s.instance, s.step_id FROM steps s SEMI JOIN stg_win w ON s.code = w.code AND s.instance = w.instance)
${SELECT_STAGED_STEPS} ANTI JOIN held h ON h.code = c.code AND h.instance = c.instance AND h.step_id = c.step_id`,
];

/** The steps of a batch none of whose lawsuits the warehouse held: nothing to merge with. */
export const INSERT_NEW_STEPS_SQL = `${INSERT_STEPS}\n${SELECT_STAGED_STEPS}`;

export const INSERT_RESPONSES_SQL = `
INSERT INTO responses_raw (response_id, request_id, response_type, created_at, item, run_id, loaded_at)
SELECT c.response_id, c.request_id, c.response_type, TRY_CAST(c.created_at AS TIMESTAMPTZ), c.item::JSON, c.run_id, current_timestamp
FROM stg_responses c ANTI JOIN responses_raw r ON r.response_id = c.response_id`;

export const INSERT_HITS_SQL = `
INSERT INTO search_hits (request_id, code, instance, response_id, first_seen_at)
SELECT c.request_id, c.code, c.instance, c.response_id, current_timestamp
FROM stg_hits c ANTI JOIN search_hits h ON h.request_id = c.request_id AND h.code = c.code AND h.instance = c.instance`;

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
