import { createHash } from 'node:crypto';
import type { ExportPrivacy } from '../shared/config.js';
import type { ExportTable } from './schema/exports.js';
import { SCHEMA, tableOf } from './schema/index.js';
import { ident } from './schema/sql.js';
import type { Column, Privacy, Schema, Table } from './schema/types.js';
import { WarehouseError, type Warehouse } from './warehouse.js';

// Exports safe to share (LGPD): the Parquet exports can leave out lawsuits under secrecy and replace what
// identifies a natural person by a keyed hash, while the warehouse keeps every original. The hash is
// HMAC-SHA-256 with the operator's secret, so a pseudonym is the same every night (BI joins and counts keep
// working) and nobody without the secret can turn a CPF into its pseudonym to look a person up.
//
// The hashing runs inside DuckDB, as macros over its sha256: HMAC is two SHA-256 passes over the key XOR-ed
// with two pads (RFC 2104), and the pads enter DuckDB only as bound parameters, never in SQL text (DuckDB
// quotes SQL text in its errors). Measured on 1M values: 0.9 s in DuckDB, against 2.1 s for Node's own
// createHmac before any row has even crossed from DuckDB to Node and back.
//
// What each column holds that identifies a person is an attribute of the column in the declaration
// (schema/tables/, `privacy`); this file says what each kind of it becomes, and which rows go with a lawsuit.

/**
 * What the privacy mode writes in place of a column of each kind (schema/types.ts, `Privacy`), as SQL over the
 * plain export's row `t` of table `table`; undefined: the column as it is. `n.names` is the list of hidden names
 * of the row's lawsuit (parties who are not companies, and lawyers), for free text. A kind that reads other
 * columns of the row names them in `needs`, checked against the table's declaration.
 */
const WRITES: Record<Privacy, { needs?: readonly string[]; sql?: (col: string, c: Column, table: Table) => string }> = {
  'name': { sql: (col) => `pz_name(${col})` },
  'party name': {
    needs: ['document', 'document_type', 'main_document', 'documents'],
    sql: (col) => `CASE WHEN pz_party_is_company(t.document, t.document_type, t.main_document, t.documents) THEN ${col} ELSE pz_name(${col}) END`,
  },
  'document': { sql: (col, c, table) => `pz_doc(${col}, ${table.columns.some((x) => x.name === `${c.name}_type`) ? `t.${ident(`${c.name}_type`)}` : 'NULL'})` },
  'oab': { sql: (col) => `pz_doc(${col}, 'OAB')` },
  'documents': { sql: (col) => `pz_docs_json(${col})` },
  'lawsuit text': {
    needs: ['code', 'instance'],
    sql: (col, c, table) => {
      const scrubbed = `pz_scrub(${col}, n.names)`;
      // JSON stays JSON: a pseudonym put where the provider had a bare number would not be, so it goes.
      const text = c.type === 'JSON' ? `CASE WHEN json_valid(${scrubbed}) THEN ${scrubbed} END` : scrubbed;
      // A row under secrecy (a private step) keeps its date and type; its text is not shared.
      const secret = table.columns.find((x) => x.privacy === 'secrecy flag');
      return secret ? `CASE WHEN t.${ident(secret.name)} THEN NULL ELSE ${text} END` : text;
    },
  },
  'cpf text': { sql: (col) => `pz_scrub_cpf(${col})` },
  'search key': { needs: ['search_type'], sql: (col) => `pz_search_key(t.search_type, ${col})` },
  'search': {
    needs: ['search_type', 'search_key'],
    sql: (col) => `CASE WHEN t.search_type IN ('cpf', 'name') THEN json_merge_patch(${col}, json_object('search_key', pz_search_key(t.search_type, t.search_key)))::VARCHAR ELSE ${col} END`,
  },
  'search text': { needs: ['search_type', 'search_key'], sql: (col) => `pz_scrub(${col}, CASE WHEN t.search_type = 'name' THEN [t.search_key] END)` },
  // The export writes JSON as text (schema/exports.ts): the column keeps its exported type.
  'withheld': { sql: (_col, c) => `NULL::${c.type === 'JSON' ? 'VARCHAR' : c.type}` },
  'secrecy flag': {},
  'not personal': {},
};

/** The rules of one exported table, from its declaration. */
interface TablePrivacy {
  /** Its rows belong to a lawsuit (columns code, instance): they are left out with the lawsuit. */
  perLawsuit: boolean;
  /** Output columns replaced when pseudonymising, as SQL over the plain export's row `t`. */
  pseudonymise: Record<string, string>;
}

function tablePrivacy(table: Table, lawsuits: Table): TablePrivacy {
  const has = (name: string): boolean => table.columns.some((c) => c.name === name);
  const pseudonymise: Record<string, string> = {};
  for (const c of table.columns) {
    if (!c.privacy || c.exported === false) continue;
    const rule = WRITES[c.privacy];
    const missing = (rule.needs ?? []).filter((n) => !has(n));
    if (missing.length > 0) throw new WarehouseError('WAREHOUSE_EXPORT', `${table.name}.${c.name} is declared '${c.privacy}', which reads the row's ${missing.join(', ')}: ${table.name} has no such column (src/warehouse/schema/)`);
    if (rule.sql) pseudonymise[c.name] = rule.sql(`t.${ident(c.name)}`, c, table);
  }
  // A lawsuit's column appended to another table's rows would be written plain: none may be personal.
  for (const name of table.export?.withLawsuit ?? []) {
    if (lawsuits.columns.find((c) => c.name === name)?.privacy) throw new WarehouseError('WAREHOUSE_EXPORT', `the export of ${table.name} appends lawsuits.${name}, which holds personal data (src/warehouse/schema/)`);
  }
  return { perLawsuit: has('code') && has('instance'), pseudonymise };
}

// Each macro is a rule of README "Sharing exports (LGPD)". A document is kept only when it is positively a
// company's CNPJ or a lawyer's OAB number and not shaped like a CPF; anything else that is not blank (a CPF,
// an unknown type, a value that cannot be read) is hashed. A party's name is kept only when the party has a
// company document and no other: a natural person, a lawyer, a party without documents are all hidden.
const MACROS = [
  `pz_hmac(m) AS sha256(getvariable('pz_opad')::BLOB || unhex(sha256(getvariable('pz_ipad')::BLOB || encode(m))))`,
  `pz_alnum(s) AS upper(regexp_replace(s, '[^0-9A-Za-z]', '', 'g'))`,
  `pz_blank(s) AS s IS NULL OR trim(s) = ''`,
  `pz_kept_doc(d, t) AS NOT regexp_full_match(pz_alnum(d), '[0-9]{11}') AND (
     (upper(coalesce(t, '')) = 'CNPJ' AND length(pz_alnum(d)) = 14) OR upper(coalesce(t, '')) = 'OAB'
     OR (trim(coalesce(t, '')) = '' AND length(pz_alnum(d)) = 14))`,
  `pz_company_doc(d, t) AS NOT pz_blank(d) AND pz_kept_doc(d, t) AND upper(coalesce(t, '')) <> 'OAB'`,
  `pz_personal_doc(d, t) AS NOT pz_blank(d) AND NOT pz_kept_doc(d, t)`,
  `pz_doc(d, t) AS CASE WHEN pz_blank(d) OR pz_kept_doc(d, t) THEN d ELSE pz_hmac('doc:' || pz_alnum(d)) END`,
  `pz_name(n) AS CASE WHEN pz_blank(n) THEN n ELSE pz_hmac('name:' || upper(strip_accents(trim(regexp_replace(n, '\\s+', ' ', 'g'))))) END`,
  `pz_docs(j) AS TRY(from_json(j, '[{"document":"VARCHAR","document_type":"VARCHAR"}]'))`,
  `pz_docs_json(j) AS to_json(list_transform(pz_docs(j), lambda x: {'document': pz_doc(x.document, x.document_type), 'document_type': x.document_type}))::VARCHAR`,
  // A documents list that cannot be read counts as holding a personal document.
  `pz_docs_personal(j) AS CASE WHEN j IS NULL OR TRY(json_type(j)) = 'NULL' THEN false WHEN pz_docs(j) IS NULL THEN true
     ELSE coalesce(list_bool_or(list_transform(pz_docs(j), lambda x: pz_personal_doc(x.document, x.document_type))), false) END`,
  `pz_docs_company(j) AS coalesce(list_bool_or(list_transform(pz_docs(j), lambda x: pz_company_doc(x.document, x.document_type))), false)`,
  `pz_party_is_company(d, t, main, docs) AS (pz_company_doc(d, t) OR pz_company_doc(main, NULL) OR pz_docs_company(docs))
     AND NOT (pz_personal_doc(d, t) OR pz_personal_doc(main, NULL) OR pz_docs_personal(docs))`,
  `pz_search_key(type, key) AS CASE type WHEN 'cpf' THEN pz_doc(key, 'CPF') WHEN 'name' THEN pz_name(key) ELSE key END`,
  // Runs of digits, dots and dashes holding exactly 11 digits: a CPF, punctuated or not, wherever it stands in
  // a text ("CPF09206529722", "092.065.297-22."). A CNPJ (with its slash) and a CNJ number (20 digits) are not.
  `pz_scrub_cpf(s) AS list_reduce(
     list_filter(regexp_extract_all(s, '[0-9][0-9.-]*[0-9]'), lambda c: length(regexp_replace(c, '[^0-9]', '', 'g')) = 11),
     lambda acc, c: replace(acc, c, pz_hmac('doc:' || regexp_replace(c, '[^0-9]', '', 'g'))), s)`,
  // Names compared without regard to case; the longest first, so a name inside a longer one does not split it.
  // The pattern differs per name, so RE2 compiles it for each row: the plain test before it keeps that to the
  // texts that hold the name (20k steps: 1.1 s without it).
  `pz_scrub(s, names) AS pz_scrub_cpf(list_reduce(coalesce(names, []::VARCHAR[]),
     lambda acc, x: CASE WHEN contains(lower(acc), lower(x)) THEN regexp_replace(acc, '(?i)' || regexp_escape(x), pz_name(x), 'g') ELSE acc END, s))`,
];
const macroName = (m: string): string => m.slice(0, m.indexOf('('));

/** The two HMAC pads of `secret` as hex (RFC 2104: a key longer than the hash's block is hashed first). */
function hmacPads(secret: string): { ipad: string; opad: string } {
  let key = Buffer.from(secret, 'utf8');
  if (key.length > 64) key = createHash('sha256').update(key).digest();
  const block = Buffer.alloc(64);
  key.copy(block);
  return { ipad: Buffer.from(block.map((b) => b ^ 0x36)).toString('hex'), opad: Buffer.from(block.map((b) => b ^ 0x5c)).toString('hex') };
}

/** Whether `privacy` changes anything in the exports. */
export function privacyApplies(privacy: ExportPrivacy | undefined): privacy is ExportPrivacy {
  return privacy !== undefined && (privacy.mode === 'pseudonymise' || privacy.maxSecrecy < 5);
}

export interface PrivacyScope {
  /** The select that writes `table` under the privacy rules. */
  select(table: ExportTable): string;
  /** Lawsuits left out for their secrecy level. */
  withheldLawsuits: number;
  /** Removes the macros, tables and key from the connection. */
  close(): Promise<void>;
}

/**
 * Prepares `wh`'s connection to write private exports: the key as two variables, the macros, the lawsuits that
 * may be shared and each lawsuit's hidden names as temporary tables. Works on a read-only warehouse (the temp
 * catalogue is the connection's own). Call `close()` when done, also after a failure.
 */
export async function openPrivacyScope(wh: Warehouse, privacy: ExportPrivacy, schema: Schema = SCHEMA): Promise<PrivacyScope> {
  const pseudonymise = privacy.mode === 'pseudonymise';
  if (pseudonymise && !privacy.salt) throw new WarehouseError('WAREHOUSE_EXPORT', 'pseudonymised exports need their secret: set LAWSUIT_EXPORT_SALT_FILE (or LAWSUIT_EXPORT_SALT)');
  const maxSecrecy = privacy.maxSecrecy;
  if (!Number.isInteger(maxSecrecy) || maxSecrecy < 0 || maxSecrecy > 5) throw new WarehouseError('WAREHOUSE_EXPORT', `export secrecy level ${maxSecrecy} is not a whole number from 0 to 5 (LAWSUIT_EXPORT_MAX_SECRECY)`);
  const scope: PrivacyScope = {
    withheldLawsuits: 0,
    select: (t) => privateSelect(t, tablePrivacy(tableOf(t.table, schema), tableOf('lawsuits', schema)), pseudonymise),
    close: async () => {
      await wh.run('DROP TABLE IF EXISTS temp.pz_kept; DROP TABLE IF EXISTS temp.pz_names');
      for (const m of MACROS) await wh.run(`DROP MACRO IF EXISTS temp.${macroName(m)}`);
      await wh.run('RESET VARIABLE pz_ipad; RESET VARIABLE pz_opad');
    },
  };
  try {
    // An unknown secrecy level counts as the highest: a lawsuit is shared only when it is known to be allowed.
    await wh.run(`CREATE OR REPLACE TEMP TABLE pz_kept AS SELECT code, instance FROM lawsuits WHERE coalesce(secrecy_level, 5) <= ${maxSecrecy}`);
    const [{ n }] = await wh.all<{ n: number }>('SELECT (SELECT count(*) FROM lawsuits) - (SELECT count(*) FROM pz_kept) AS n');
    scope.withheldLawsuits = Number(n);
    if (pseudonymise) {
      const pads = hmacPads(privacy.salt!);
      await wh.run('SET VARIABLE pz_ipad = unhex($1)', [pads.ipad]);
      await wh.run('SET VARIABLE pz_opad = unhex($1)', [pads.opad]);
      for (const m of MACROS) await wh.run(`CREATE OR REPLACE TEMP MACRO ${m}`);
      // Per lawsuit, the names its free text may quote and the exports must not: the hidden parties' and the
      // lawyers'. Built once, joined by every table with free text.
      await wh.run(`CREATE OR REPLACE TEMP TABLE pz_names AS
        SELECT code, instance, list(name ORDER BY length(name) DESC, name) AS names FROM (
          SELECT DISTINCT code, instance, name FROM (
            SELECT code, instance, name FROM parties
              WHERE NOT pz_party_is_company(document, document_type, main_document, documents::VARCHAR)
            UNION ALL SELECT code, instance, name FROM lawyers
          ) WHERE NOT pz_blank(name)
        ) GROUP BY code, instance`);
    }
  } catch (e) {
    await scope.close().catch(() => undefined);
    throw e;
  }
  return scope;
}

/** The plain export's select wrapped: the same columns in the same order, some replaced, some rows left out. */
function privateSelect(table: ExportTable, rules: TablePrivacy, pseudonymise: boolean): string {
  const replace = pseudonymise ? Object.entries(rules.pseudonymise).map(([col, sql]) => `${sql} AS ${ident(col)}`) : [];
  const needsNames = replace.some((r) => r.includes('n.names'));
  return `SELECT t.*${replace.length ? ` REPLACE (${replace.join(', ')})` : ''}
    FROM (${table.select}) t
    ${needsNames ? 'LEFT JOIN pz_names n ON n.code = t.code AND n.instance = t.instance' : ''}
    ${rules.perLawsuit ? 'WHERE (t.code, t.instance) IN (SELECT code, instance FROM pz_kept)' : ''}`;
}
