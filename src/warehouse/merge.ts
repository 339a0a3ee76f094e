// The set-based merges from the staging tables into the warehouse, one layer at a time (load.ts: each lawsuit at
// most once in a layer). How each column is merged is declared beside it (schema/types.ts, MergeRule), and every
// rule depends only on the set of payloads merged, never on their order, their batches or their nights: a
// payload loaded late but crawled early fills exactly the columns no newer payload carries, and nothing else.
// That is what makes the warehouse a function of what the provider sent, and `rebuild` give the same tables.
//
// The machinery: each merged row keeps the version of its newest payload (payload_version) and, for the few
// columns whose value came from an older payload (the newer ones did not carry them), that payload's version
// (column_versions, NULL when there are none). A staged payload then takes a column exactly when it carries it
// and is newer than the payload the stored value came from; it takes the row's `newest` columns (raw, the
// response it came in) when it is newer than the row. Merging is a join of versions: commutative, associative
// and idempotent, so order, batching and repetition cannot show. A row a newer payload wins is replaced whole (its
// raw is that payload's), but a step the newer payload repeats as it was only has its version moved.

import { SCHEMA, tableOf } from './schema/index.js';
import { ident } from './schema/sql.js';
import { listFlags } from './schema/staging.js';
import type { Column, MergeRule, Schema, Table } from './schema/types.js';
import { stageName } from './stage.js';

/**
 * A payload's version as text that sorts as versions do: the crawl time, then updated_at, then the response's
 * created_at (each: absent first, then by instant, as 16 hex digits), then the response id (byte order), so that
 * two payloads of one lawsuit never tie: the provider's response ids are unique, and a payload seen twice is the
 * same payload. The times are SQL expressions of TIMESTAMPTZ, the id of VARCHAR.
 */
function versionSql(crawled: string, updated: string, created: string, responseId: string): string {
  const time = (e: string): string =>
    `CASE WHEN ${e} IS NULL OR ${e} = '-infinity' THEN '0' WHEN ${e} = 'infinity' THEN '2' `
    + `ELSE '1' || lpad(to_hex((epoch_us(${e})::HUGEINT + 9223372036854775808)::UBIGINT), 16, '0') END`;
  return `concat(${time(crawled)}, ${time(updated)}, ${time(created)}, coalesce(${responseId}, ''))`;
}

const ts = (c: string): string => `TRY_CAST(s.${c} AS TIMESTAMPTZ)`;

const ruleOf = (c: Column): MergeRule => c.merge ?? 'newest';
/** The merge's own columns (schema/common.ts, MERGE_COLUMNS): written here, never staged. */
const MACHINERY = new Set(['payload_version', 'column_versions']);

/** The columns a load writes: those staged and those with a value of their own at load. */
const loaded = (t: Table): Column[] => t.columns.filter((c) => c.stage !== undefined || c.load !== undefined);

/** The warehouse value of a column, from the staged row `s`: staged text is cast to the column's type. */
function valueOf(c: Column): string {
  if (c.load !== undefined) return c.load;
  if (c.stage !== undefined && c.stage !== c.type) return `TRY_CAST(s.${ident(c.name)} AS ${c.type})`;
  return `s.${ident(c.name)}`;
}

const names = (cols: readonly string[]): string => cols.map(ident).join(', ');
const q = (prefix: string, name: string): string => `"${prefix}.${name}"`;
const keyOn = (t: Table, a: string, b: string): string => t.key!.map((k) => `${a}.${ident(k)} = ${b}.${ident(k)}`).join(' AND ');

/**
 * The stored rows of `table` (as `alias`) whose lawsuit is among `keys` (a FROM item with code and instance), as a
 * FROM item and its WHERE. Found by rowid: a semi-join reads every column of every stored row before it drops one
 * (DuckDB 1.5 pushes the join's keys into the scan only as zone-map bounds, which CNJ codes in no order never meet),
 * where the key columns alone find the rowids, and the scan that fetches them reads only the row groups holding them.
 * Measured at 70,596 lawsuits (one thread): the lawsuits' stored columns of 2 lawsuits 4.1 ms against 13.4, of 1,000
 * 16.7 against 24.8; the seven lists' rows of 2 lawsuits 17.5 ms against 54.9, of 50 or more alike.
 */
const storedOf = (table: string, alias: string, keys: string): string =>
  `${table} ${alias} WHERE ${alias}.rowid IN (SELECT r.rowid FROM ${table} r SEMI JOIN ${keys} w ON w.code = r.code AND w.instance = r.instance)`;

/** What the merge of one table needs to know besides its declaration. */
interface Source {
  /** The staged rows, as a FROM item named `s`. */
  staged: string;
  /** The version of the staged row `s`, as SQL. */
  version: string;
  /**
   * The stored rows the staged ones may meet, as a query read once (a semi-join that streams the big table: a
   * join straight against it would read every row's columns, or hash the whole of it).
   */
  stored: string;
  /** Staged BOOLEAN columns that say whether the payload carried a list: false carries nothing. */
  flags?: ReadonlySet<string>;
  /**
   * Tell the rows a newer payload wins without changing anything but payload_version (`same`): every value equal
   * to the stored one, which came whole from its own payload (no column_versions) and keeps none the new payload
   * leaves out. Only their stored version can then change (`moves`), in place (writes' `move`), rather than the
   * rows being rewritten. The stored rows carry a digest of each `newest` column (storedColumns with digests),
   * compared with the staged value's.
   */
  same?: boolean;
  /**
   * The rows are a union under a parent row (steps under their lawsuit) and store their version as NULL when it is
   * the parent's (MERGE_CHILD_COLUMNS). The staged and the stored rows both give `parent_version`, the parent's
   * version once this layer is merged; the stored ones give payload_version as their effective version (NULL
   * resolved to the parent's before this layer) and `own_version` as stored. The stored rows no staged row
   * repeats are merged too (a FULL join), since a parent a newer payload wins moves the version of every row that
   * inherits it: those its payload leaves out keep their own, written down (`moves`).
   */
  parent?: boolean;
}

/**
 * Each staged row beside the stored row of its key (if any), merged column by column. Besides the table's
 * columns (but the `newest` ones, which writes' insert reads from the staged row), the result says whether the
 * key `existed`, whether the staged payload `wins` (is newer than every payload of the stored row: it then gives
 * the `newest` columns), whether the merge `changed` anything but run bookkeeping, `s_version` (the staged
 * payload's version), `k_version` (the stored row's), per carried column c "take.c" (the staged value was taken),
 * and `moves`: a row not rewritten whose stored payload_version is not the one it should have. Built in four
 * steps, each a SELECT over the one before: besides, taken, merged, stored.
 */
function mergedRows(t: Table, src: Source): string {
  const key = t.key!;
  const cols = loaded(t).filter((c) => !key.includes(c.name) && !MACHINERY.has(c.name));
  const carried = cols.filter((c) => ruleOf(c) === 'carried');
  const taken = `
    SELECT *, (s_version IS NOT NULL AND (k_version IS NULL OR s_version > k_version)) AS wins,
      ${carried.map((c) => `(${q('s', c.name)} IS NOT NULL AND (${q('kv', c.name)} IS NULL OR s_version > ${q('kv', c.name)})) AS ${q('take', c.name)}`).join(', ')}
    FROM (${besidesSql(key, cols, src, t)})`;
  const rows = storedRowsSql(cols, carried, src, mergedSql(key, cols, carried, src, taken));
  // With `same`, most rows are the same as stored (a newer crawl repeats most steps): only those a write needs are
  // kept, with the newest values of those inserted. Writing every merged step to the temp table cost as much as
  // merging it. OFFSET 0 keeps DuckDB (1.5) from pushing the filter below the projections, where it inlined every
  // column it names and so worked out `same`, hashes included, twice per row: 24 ms against 17 for 25,000 steps.
  return `WITH k_rows AS MATERIALIZED (${src.stored})
${src.same ? `SELECT * FROM (${rows} OFFSET 0) WHERE (wins AND NOT same) OR (NOT wins AND changed) OR moves` : rows}`;
}

/** mergedRows' first step: each staged row beside the stored row of its key (`k_rows`), each column's sides named. */
function besidesSql(key: readonly string[], cols: readonly Column[], src: Source, t: Table): string {
  const staged = (c: Column): string => (src.flags?.has(c.name) ? `CASE WHEN s.${ident(c.name)} THEN true END` : valueOf(c));
  // The version the stored value came from: an older payload's (column_versions, read once a row: storedColumns'
  // `kcv`) or the row's own.
  const storedVersion = (c: Column): string =>
    `coalesce(k.kcv.${ident(c.name)}, CASE WHEN k.${ident(c.name)} IS NOT NULL THEN k.payload_version END)`;
  const side = cols.map((c) => {
    const n = ident(c.name);
    switch (ruleOf(c)) {
      case 'carried': return `${staged(c)} AS ${q('s', c.name)}, k.${n} AS ${q('k', c.name)}, ${storedVersion(c)} AS ${q('kv', c.name)}`;
      // Without `same`, the value is not carried through: the rows it wins are written from the staged row
      // (writes' insert), so that the large raw text of every lawsuit is not copied into the merged rows too.
      case 'newest': return src.same
        ? `${valueOf(c)} AS ${q('s', c.name)}, hash(${valueOf(c)}::VARCHAR) IS NOT DISTINCT FROM k.${q('kd', c.name)} AS ${q('same', c.name)}`
        : undefined;
      case 'earliest': return `least(${valueOf(c)}, k.${n}) AS ${n}`;
      case 'latest': return `greatest(${valueOf(c)}, k.${n}) AS ${n}`;
    }
  });
  return `
    SELECT ${key.map((k) => (src.parent ? `coalesce(s.${ident(k)}, k.${ident(k)}) AS ${ident(k)}` : `s.${ident(k)}`)).join(', ')},
      ${src.version} AS s_version, k.payload_version AS k_version, k.column_versions AS k_column_versions,
      ${src.parent ? 'k.own_version AS k_own_version, coalesce(s.parent_version, k.parent_version) AS parent_version' : 'k.payload_version AS k_own_version'},
      k.${ident(key[0])} IS NOT NULL AS existed, ${side.filter((x) => x !== undefined).join(', ')}
    FROM ${src.staged} ${src.parent ? 'FULL' : 'LEFT'} JOIN k_rows k ON ${keyOn(t, 'k', 's')}`;
}

/** mergedRows' third step, over the `taken` rows: each column's merged value, whether the row `changed`, and whether it is the `same`. */
function mergedSql(key: readonly string[], cols: readonly Column[], carried: readonly Column[], src: Source, taken: string): string {
  return `
    SELECT ${names(key)}, existed, wins, s_version, k_version, greatest(s_version, k_version) AS effective_version,
      ${cols.map((c) => {
        const n = ident(c.name);
        if (ruleOf(c) === 'newest') return src.same ? q('s', c.name) : undefined;
        if (ruleOf(c) === 'carried') {
          return `CASE WHEN ${q('take', c.name)} THEN ${q('s', c.name)} ELSE ${q('k', c.name)} END AS ${n}, `
            + `CASE WHEN ${q('take', c.name)} THEN s_version ELSE ${q('kv', c.name)} END AS ${q('v', c.name)}, ${q('take', c.name)}`;
        }
        return n;
      }).filter((x) => x !== undefined).join(', ')},
      (wins ${carried.map((c) => `OR ${q('take', c.name)}`).join(' ')}) AS changed,
      ${src.same ? `coalesce(existed AND wins AND k_column_versions IS NULL ${cols.filter((c) => ruleOf(c) === 'newest').map((c) => `AND ${q('same', c.name)}`).join(' ')}
        ${carried.map((c) => `AND CASE WHEN ${q('take', c.name)} THEN ${q('s', c.name)} = ${q('k', c.name)} ELSE ${q('k', c.name)} IS NULL END`).join(' ')}, false)` : 'false'} AS same,
      k_own_version${src.parent ? ', parent_version' : ''}
    FROM (${taken})`;
}

/** mergedRows' last step, over the `merged` rows: the versions as stored (payload_version, column_versions) and `moves`. */
function storedRowsSql(cols: readonly Column[], carried: readonly Column[], src: Source, merged: string): string {
  const versions = carried.map((c) => `{'k': '${c.name}', 'v': ${q('v', c.name)}}`).join(', ');
  // The version as stored: NULL for a row whose version is its parent's.
  const stored = src.parent ? 'CASE WHEN effective_version = parent_version THEN NULL ELSE effective_version END' : 'effective_version';
  const newest = src.same ? cols.filter((c) => ruleOf(c) === 'newest') : [];
  return `SELECT * EXCLUDE (${[...carried.map((c) => q('v', c.name)), ...newest.map((c) => q('s', c.name)), 'effective_version', 'k_own_version', ...(src.parent ? ['parent_version'] : [])].join(', ')}),
  effective_version AS payload_version, ${stored} AS stored_version,
  -- Only a row some of whose values came from an older payload builds the JSON (the common row has none).
  CASE WHEN ${carried.map((c) => `coalesce(${q('v', c.name)} = effective_version, true)`).join(' AND ')} THEN NULL
    ELSE to_json(map_from_entries(list_filter([${versions}], e -> e.v IS NOT NULL AND e.v <> effective_version)))::JSON END AS column_versions,
  ${newest.map((c) => `CASE WHEN wins AND NOT same THEN ${q('s', c.name)} END AS ${ident(c.name)}, `).join('')}
  -- A row neither rewritten (a winner not the same) nor filled whose stored version is not the one it should have.
  coalesce(existed AND (same OR NOT wins) AND (${stored}) IS DISTINCT FROM k_own_version, false) AS moves
FROM (${merged})`;
}

/**
 * The statements that write a merged table from its merged rows `m` (a temp table made by mergedRows). Merged rows
 * made without Source.same do not carry the `newest` values: `staged` names the staged table they are read from.
 */
function writes(t: Table, m: string, staged?: string) {
  const cols = loaded(t).filter((c) => !MACHINERY.has(c.name));
  const written = [...cols.map((c) => c.name), 'payload_version', 'column_versions'];
  const insertedOf = (c: Column): string => (staged && !t.key!.includes(c.name) && ruleOf(c) === 'newest' ? valueOf(c) : `m.${ident(c.name)}`);
  const carried = loaded(t).filter((c) => ruleOf(c) === 'carried').map((c) => c.name);
  const bookkeeping = loaded(t).filter((c) => ruleOf(c) === 'earliest' || ruleOf(c) === 'latest').map((c) => c.name);
  const loadedAt = loaded(t).filter((c) => ruleOf(c) === 'newest' && c.load === 'current_timestamp').map((c) => c.name);
  const set = (cs: readonly string[]): string => cs.map((c) => `${ident(c)} = m.${ident(c)}`).join(', ');
  return {
    /** Rows a newer payload replaces: deleted, then inserted whole (`insert`). */
    delete: `DELETE FROM ${t.name} USING ${m} m WHERE ${keyOn(t, t.name, 'm')} AND m.wins AND m.existed AND NOT m.same`,
    /** The rows the staged payload wins: new ones, and those `delete` removed. */
    insert: `INSERT INTO ${t.name} (${names(written)})
SELECT ${[...cols.map(insertedOf), 'm.stored_version', 'm.column_versions'].join(', ')}
FROM ${m} m${staged ? ` JOIN ${staged} s ON ${keyOn(t, 's', 'm')}` : ''} WHERE m.wins AND NOT m.same`,
    /**
     * Rows whose values stay as they are but whose stored version changes (mergedRows' `moves`): updated in place.
     * A newer crawl repeats most steps as they were, and rewriting them whole cost the second night most of its
     * merge; a step inheriting its lawsuit's version needs no write at all then.
     */
    move: `UPDATE ${t.name} SET payload_version = m.stored_version FROM ${m} m WHERE ${keyOn(t, t.name, 'm')} AND m.moves`,
    /**
     * Rows an older payload changes: it carries columns no newer payload carried. Updated in place, the large
     * `newest` columns (raw) untouched.
     */
    fill: `UPDATE ${t.name} SET ${set([...carried, 'column_versions', ...bookkeeping])}${loadedAt.map((c) => `, ${ident(c)} = current_timestamp`).join('')}
FROM ${m} m WHERE ${keyOn(t, t.name, 'm')} AND NOT m.wins AND m.changed`,
    /** Rows an older payload changes nothing of but the runs that saw them. */
    touch: bookkeeping.length === 0 ? undefined : `UPDATE ${t.name} SET ${set(bookkeeping)}
FROM ${m} m WHERE ${keyOn(t, t.name, 'm')} AND NOT m.wins AND NOT m.changed
  AND (${bookkeeping.map((c) => `${t.name}.${ident(c)} IS DISTINCT FROM m.${ident(c)}`).join(' OR ')})`,
  };
}

/**
 * The columns of stored rows a merge reads: the key, the merge's own, and every column but the `newest` ones, which
 * only the staged payload gives (mergedRows never reads them from the stored row). Leaving them out keeps the raw
 * JSON out of the materialized stored rows. As a SELECT list over the table as `alias`; `version` replaces the
 * stored payload_version (Source.parent: the effective one).
 */
function storedColumns(t: Table, opts: { alias: string; digests?: boolean; version?: string }): string {
  const key = t.key!;
  const col = (c: string): string => `${opts.alias}.${ident(c)}`;
  const read = [...key, ...t.columns.filter((c) => !key.includes(c.name) && (ruleOf(c) !== 'newest' || MACHINERY.has(c.name))).map((c) => c.name)];
  // With digests (Source.same): DuckDB's 64-bit hash of each `newest` column (raw) instead of its text, to tell a
  // row that changed without materializing every stored step's JSON; md5 cost the merge of 10,000 lawsuits 250 ms
  // more. Two different raws of one step hashing alike (odds near 2^-64) would leave the older raw in place.
  // Hashed above the join that picks the layer's rows, so that only those are.
  const digests = opts.digests ? t.columns.filter((c) => !key.includes(c.name) && ruleOf(c) === 'newest' && !MACHINERY.has(c.name) && c.load === undefined) : [];
  // column_versions parsed once a row into a struct of the carried columns (`kcv`): a json_extract_string per
  // carried column parsed the JSON 36 times a lawsuit, and a layer of 1,000 headers over lawsuits read whole
  // (each with its versions) took DuckDB past its 128 MB in that one statement (34 MB before it; 13 MB and 231 ms
  // against 342 ms with the struct: the levels bench's companies, night 3).
  const carried = t.columns.filter((c) => ruleOf(c) === 'carried').map((c) => `${JSON.stringify(c.name)}: "VARCHAR"`);
  return [
    ...read.map((c) => (c === 'payload_version' && opts.version ? `${opts.version} AS payload_version` : `${col(c)}`)),
    ...digests.map((c) => `hash(${col(c.name)}::VARCHAR) AS ${q('kd', c.name)}`),
    ...(carried.length > 0 ? [`json_transform(${col('column_versions')}, '{${carried.join(', ')}}') AS kcv`] : []),
  ].join(', ');
}

/**
 * Steps are a union over every payload: one that omits a step removes none. Each step is merged as a lawsuit is,
 * with its payload's version, under its lawsuit (Source.parent), once the layer's lawsuits are (stg_merged_lawsuits).
 */
function stepStatements(steps: Table) {
  const stepCols = loaded(steps).filter((c) => !MACHINERY.has(c.name));
  return {
    mergeSteps: `CREATE OR REPLACE TEMP TABLE stg_merged_steps AS ${mergedRows(steps, {
      staged: `(SELECT st.*, l.s_version AS payload_version, l.payload_version AS parent_version
    FROM stg_steps st JOIN stg_merged_lawsuits l ON l.code = st.code AND l.instance = st.instance) s`,
      version: 's.payload_version', same: true, parent: true,
      // The stored steps of the layer's lawsuits, each with its effective version (NULL: the lawsuit's before the layer).
      stored: `SELECT ${storedColumns(steps, { alias: 'h', digests: true, version: 'coalesce(h.payload_version, w.k_version)' })},
    h.payload_version AS own_version, w.payload_version AS parent_version
  FROM steps h JOIN (SELECT code, instance, k_version, payload_version FROM stg_merged_lawsuits WHERE existed) w ON h.code = w.code AND h.instance = w.instance`,
    })}`,
    steps: writes(steps, 'stg_merged_steps'),
    /**
     * The steps of a layer none of whose lawsuits the warehouse held: nothing to merge with, every value its
     * payload's, and so is the version, its lawsuit's (NULL).
     */
    insertNewSteps: `INSERT INTO steps (${names([...stepCols.map((c) => c.name), 'payload_version', 'column_versions'])})
SELECT ${stepCols.map(valueOf).join(', ')}, NULL, NULL FROM stg_steps s`,
  };
}

/** Inserts the loaded columns of `t` from staged rows `s` (`from` names them, and what they are joined with). */
const insertStaged = (t: Table, from: string): string => `INSERT INTO ${t.name} (${names(loaded(t).map((c) => c.name))})
SELECT ${loaded(t).map(valueOf).join(', ')}
FROM ${from}`;

interface ChildStatements { table: string; del: string; ins: string; insNew: string }

/**
 * Lists are replaced whole per lawsuit, when the staged payload carries the list and is newer than the payload the
 * stored list came from (an absent list says nothing, an empty one says "none now"); the list's version moves with
 * the lawsuit's row (column_versions). Its rows are rewritten only when they differ from the stored ones: a newer
 * crawl repeats most lists as they were, and rewriting them cost a second night of 20,000 lawsuits 0.9 s of its
 * 7 s (parties, lawyers, subjects, classifications, courts and attachments deleted and inserted again).
 */
function listStatements(children: readonly Table[]) {
  // Rows compared as a multiset per lawsuit and table: a 64-bit hash of each row's values, added for a staged row
  // and taken away for a stored one, sums to zero with as many rows on each side when the lists are equal. Two
  // different lists of one lawsuit summing alike (odds near 2^-64) would leave the stored list in place. One
  // aggregate over every table: a pair of digests and a join per table cost a layer of 1,000 lawsuits 18 ms against 12.
  const rowsOf = (t: Table): string => `SELECT '${t.name}' AS list, s.code, s.instance, hash(${loaded(t).map(valueOf).join(', ')})::HUGEINT AS row_hash, 1 AS side
    FROM ${stageName(t.stage!.as)} s
  UNION ALL SELECT '${t.name}', k.code, k.instance, -hash(${loaded(t).map((c) => `k.${ident(c.name)}`).join(', ')})::HUGEINT, -1
    FROM ${storedOf(t.name, 'k', 'layer')}`;
  const take = `CASE d.list ${children.map((t) => `WHEN '${t.name}' THEN m.${q('take', t.stage!.list!)}`).join(' ')} END`;
  return {
    /** The lawsuits whose list of each child table the layer rewrites (`rows`: staged rows to insert), for `children`. */
    listsChanged: `CREATE OR REPLACE TEMP TABLE stg_lists_changed AS
WITH layer AS MATERIALIZED (SELECT code, instance FROM stg_merged_lawsuits WHERE existed)
SELECT d.list, d.code, d.instance, m.existed, d.rows FROM (
  SELECT list, code, instance, sum(row_hash) AS digest, sum(side) AS balance, count(*) FILTER (WHERE side = 1) AS rows
  FROM (${children.map(rowsOf).join('\n  UNION ALL ')})
  GROUP BY list, code, instance
) d JOIN stg_merged_lawsuits m ON m.code = d.code AND m.instance = d.instance
WHERE ${take} AND (d.digest <> 0 OR d.balance <> 0)`,
    children: children.map((t): ChildStatements => ({
      table: t.name,
      del: `DELETE FROM ${t.name} USING stg_lists_changed x
WHERE x.list = '${t.name}' AND x.existed AND ${t.name}.code = x.code AND ${t.name}.instance = x.instance`,
      ins: insertStaged(t, `${stageName(t.stage!.as)} s JOIN stg_lists_changed x ON x.list = '${t.name}' AND x.code = s.code AND x.instance = s.instance`),
      /** A layer of new lawsuits: every staged row of the list (a payload without the list staged none). */
      insNew: insertStaged(t, `${stageName(t.stage!.as)} s`),
    })),
  };
}

/** Every merge statement of `schema`, as load.ts runs them. */
export function mergeStatements(schema: Schema = SCHEMA) {
  const lawsuits = tableOf('lawsuits', schema);
  const children = schema.tables.filter((t) => t.stage?.list);
  const flags = new Set(listFlags(schema));
  const insertNew = (t: Table): string => insertStaged(t, `${stageName(t.stage!.as)} s ANTI JOIN ${t.name} r ON ${keyOn(t, 'r', 's')}`);
  /**
   * The staged lawsuits, each with its payload's version. Worked out in the statement that reads them rather than
   * kept in a table of its own: the table and the query that asked whether any lawsuit was stored cost a layer
   * 5.7 ms against 3.6 (a second night of 20,000 lawsuits).
   */
  const versioned = `(SELECT s.*, ${versionSql(ts('crawled_at'), ts('updated_at'), ts('response_created_at'), 's.response_id')} AS payload_version
    FROM stg_lawsuits s) s`;
  const lawsuitCols = loaded(lawsuits).filter((c) => !MACHINERY.has(c.name));
  const flagged = (c: Column): string => (flags.has(c.name) ? `CASE WHEN s.${ident(c.name)} THEN true END` : valueOf(c));

  return {
    /** The keys of a layer's lawsuits (load.ts appends them), to ask which the warehouse holds (`storedKeys`). */
    layerKeys: 'CREATE OR REPLACE TEMP TABLE stg_layer_keys (code VARCHAR, instance INTEGER)',
    /**
     * Which of the layer's lawsuits the warehouse holds: read from the key columns alone (3 ms at 70,000 lawsuits,
     * where reading their other columns for a semi-join takes 20), so that a layer splits into the lawsuits never
     * seen, inserted as they are, and those merged with their stored rows.
     */
    storedKeys: `SELECT s.code, s.instance FROM stg_layer_keys s SEMI JOIN (SELECT code, instance FROM lawsuits) l
  ON l.code = s.code AND l.instance = s.instance`,
    /** The lawsuits of a layer none of which the warehouse holds: every value its payload's. */
    insertNewLawsuits: `INSERT INTO lawsuits (${names([...lawsuitCols.map((c) => c.name), 'payload_version', 'column_versions'])})
SELECT ${lawsuitCols.map(flagged).join(', ')}, s.payload_version, NULL FROM ${versioned}`,
    /** The layer's lawsuits merged with the stored ones (mergedRows). */
    mergeLawsuits: `CREATE OR REPLACE TEMP TABLE stg_merged_lawsuits AS ${mergedRows(lawsuits, {
      staged: versioned, version: 's.payload_version', flags,
      stored: `SELECT ${storedColumns(lawsuits, { alias: 'l' })} FROM ${storedOf('lawsuits', 'l', 'stg_lawsuits')}`,
    })}`,
    // A lawsuit a newer payload wins is replaced, not updated: the row deleted and the merged row inserted. An
    // UPDATE of the raw JSON column was what broke a second night: DuckDB keeps an UPDATE's new strings and pins
    // the column's rows at COMMIT, and 1,000 lawsuits of 34 KB updated at 128 MB failed there (appends and
    // deletes are what DuckDB does cheaply). Measured on DuckDB 1.5.5. An older payload that fills a column
    // leaves raw alone, so it updates in place.
    lawsuits: writes(lawsuits, 'stg_merged_lawsuits', 'stg_lawsuits'),
    ...listStatements(children),
    ...stepStatements(tableOf('steps', schema)),
    insertResponses: insertNew(tableOf('responses_raw', schema)),
    /** An application_error item's row, once (rebuild empties the table and loads every item again). */
    insertErrors: insertNew(tableOf('application_errors', schema)),
    /**
     * A search's hit names one response that carried the lawsuit: the least id, whatever order they came in. The
     * new hits are inserted; `lower` moves a stored hit to a lesser id (only needed when some staged hit was stored).
     */
    mergeHits: {
      insert: insertNew(tableOf('search_hits', schema)),
      lower: `UPDATE search_hits SET response_id = s.response_id FROM stg_hits s
WHERE search_hits.request_id = s.request_id AND search_hits.code = s.code AND search_hits.instance = s.instance
  AND s.response_id < search_hits.response_id`,
    },
  };
}

export const MERGE = mergeStatements();

// Texts too long for a column, in parts (long-values.ts). A response item is written once, so are its parts; a
// lawsuit's raw is the newest payload's: its parts are replaced whenever a newer payload wins the lawsuit.
export const INSERT_RESPONSE_PARTS_SQL = `
INSERT INTO raw_parts (owner, response_id, code, instance, part, text)
SELECT p.owner, p.response_id, NULL, NULL, p.part, p.text
FROM stg_parts p ANTI JOIN responses_raw r ON r.response_id = p.response_id
WHERE p.owner = 'responses_raw.item'`;

export const DELETE_LAWSUIT_PARTS_SQL = `
DELETE FROM raw_parts USING stg_merged_lawsuits m
WHERE raw_parts.owner = 'lawsuits.raw' AND raw_parts.code = m.code AND raw_parts.instance = m.instance AND m.wins AND m.existed`;

export const INSERT_LAWSUIT_PARTS_SQL = `
INSERT INTO raw_parts (owner, response_id, code, instance, part, text)
SELECT p.owner, NULL, p.code, p.instance, p.part, p.text
FROM stg_parts p JOIN stg_merged_lawsuits m ON m.code = p.code AND m.instance = p.instance
WHERE p.owner = 'lawsuits.raw' AND m.wins`;

/** The parts of the long raws of a layer of new lawsuits. */
export const INSERT_LAWSUIT_PARTS_NEW_SQL = `
INSERT INTO raw_parts (owner, response_id, code, instance, part, text)
SELECT p.owner, NULL, p.code, p.instance, p.part, p.text FROM stg_parts p WHERE p.owner = 'lawsuits.raw'`;
