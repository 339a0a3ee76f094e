// The shape of the warehouse's declaration (schema/index.ts): each table once, with everything the code derives
// from it — the DDL, the staging columns, the merge statements, COMMENT ON, the Parquet exports and their
// privacy. The migrations (../migrations/) are the order in which the declared tables and columns
// came to be, and the data moves between; their DDL is generated from this declaration
// (../migrations/statements.ts).

/** DuckDB types a staging column may have: timestamps and amounts are staged as the payload's text (rows.ts). */
export type StageType = 'VARCHAR' | 'INTEGER' | 'BOOLEAN' | 'JSON';

/** The staging tables (stage.ts makes them as `stg_<name>`), one per kind of row the loader appends. */
export type StageTable =
  | 'lawsuits' | 'parties' | 'lawyers' | 'steps' | 'subjects' | 'classifications' | 'courts' | 'attachments'
  | 'related_lawsuits' | 'responses' | 'hits' | 'parts' | 'problems' | 'errors';

/**
 * How the merge (merge.ts) sets a column of a row made from several payloads. Each rule depends only on the set
 * of payloads, never on the order, the batches or the nights they were loaded in (docs/warehouse.md, "The merge rule"):
 * - `carried`: the value of the newest payload that carries it (absent or NULL does not carry);
 * - `newest`: the newest payload's value, NULL included (its raw text, the response it came in);
 * - `earliest` / `latest`: the least / greatest value over every payload (the runs that first and last saw it).
 * "Newest" is by payload version: the crawl time, then updated_at, then the response's created_at, then the
 * response id, so that two payloads never tie (merge.ts, versionSql).
 */
export type MergeRule = 'carried' | 'newest' | 'earliest' | 'latest';

export interface Column {
  name: string;
  /** SQL type as written in DDL: VARCHAR, INTEGER, BIGINT, BOOLEAN, JSON, TIMESTAMPTZ, DECIMAL(18,2). */
  type: string;
  /** The sentence an analyst reads in DESCRIBE / duckdb_columns(). */
  comment: string;
  /** NOT NULL. Default false. */
  notNull?: boolean;
  /** DEFAULT, as SQL. */
  default?: string;
  /** Staged by the loader with this type (the table has a `stage`); cast to `type` by the merge when they differ. */
  stage?: StageType;
  /** Its value when a staged row is loaded, for a column the rows do not carry (`s` is the staged row). */
  load?: string;
  /** How a merge sets it (the tables merged from several payloads: lawsuits, steps). Default `newest`. */
  merge?: MergeRule;
  /** In the table's Parquet export. Default true (the table has an `export`). */
  exported?: boolean;
  /** What it holds that identifies a person, for the exports' privacy mode. Default: nothing personal. */
  privacy?: Privacy;
}

/**
 * What a column holds that identifies a natural person, and so what `LAWSUIT_EXPORT_PRIVACY=pseudonymise` writes
 * in its place (privacy.ts; docs/warehouse.md, "Sharing exports (LGPD)"). A pseudonym is the keyed hash of the value. An
 * exported column whose name suggests a person or a document must say one of these
 * (test/warehouse/personal-columns-carry-a-privacy-attribute.test.ts).
 */
export type Privacy =
  /** A natural person's name (a lawyer's): its pseudonym. */
  | 'name'
  /** A party's name: kept when the row's documents (document, document_type, main_document, documents) show a company and nothing else, else its pseudonym. */
  | 'party name'
  /** A document number, its kind in the column `<name>_type` when the table has one: kept when it is a company's CNPJ, else its pseudonym. */
  | 'document'
  /** A lawyer's OAB registration, public in the bar's registry: kept unless it is shaped like a CPF. */
  | 'oab'
  /** A list of documents (JSON, `[{document, document_type}]`): each document as `document`. */
  | 'documents'
  /** Free text of the row's lawsuit: the names of its hidden people and anything shaped like a CPF replaced by pseudonyms; NULL when the row's `secrecy flag` is true, or when JSON would no longer be JSON. */
  | 'lawsuit text'
  /** Text that may quote a CPF (the provider's messages): each replaced by its pseudonym. */
  | 'cpf text'
  /** A searched key, its kind in the row's `search_type`: a CPF's or a name's pseudonym; other kinds kept. */
  | 'search key'
  /** A search object (JSON) carrying such a key as its `search_key`. */
  | 'search'
  /** Text about the row's search: a searched name and anything shaped like a CPF replaced. */
  | 'search text'
  /** Never shared: NULL (the documents list's own text, a summary quoting it). */
  | 'withheld'
  /** True for a row under secrecy: the row's `lawsuit text` is not shared. */
  | 'secrecy flag'
  /** Its name suggests a person or a document but it holds neither (a court's name, a file's): exported as it is. */
  | 'not personal';

export interface Table {
  name: string;
  comment: string;
  columns: readonly Column[];
  /** The key: unique in every warehouse (the schema tests check it on migrated files). */
  key?: readonly string[];
  /**
   * The key is kept unique by the loader (anti-joins, per-lawsuit replacement, one detection per run), not by a
   * PRIMARY KEY: DuckDB checks a key with an ART index held in memory, and at 100k lawsuits the steps index alone
   * outgrew the run's memory budget (an INSERT ... ON CONFLICT failed with "Out of Memory" at 128MB).
   */
  keptByLoader?: boolean;
  /** The loader stages rows for it (stage.ts). */
  stage?: {
    as: StageTable;
    /** Staged columns that are not columns of the table (what the merge reads beside them). */
    extra?: ReadonlyArray<readonly [string, StageType]>;
    /** A list of the lawsuit object, replaced whole when the winning payload carries it: its flag in stg_lawsuits. */
    list?: string;
  };
  /** Written to Parquet by `export` (export.ts): one folder named after the table. */
  export?: {
    /** Hive partition column (a column of the table, or of `add`/`withLawsuit`). */
    partitionBy?: string;
    /** Columns computed for the export, as SQL over the table's row `t`. */
    add?: Readonly<Record<string, string>>;
    /** Columns of the row's lawsuit (`lawsuits`, joined on code and instance) appended to each row. */
    withLawsuit?: readonly string[];
  };
  /** The comment of a column a load adds beyond the declared ones (transfer files bring their own). */
  addedColumns?: string;
}

/** A view: its SQL lives in its migration (a released view is never edited in place); its comments live here. */
export interface View {
  name: string;
  comment: string;
  columns: ReadonlyArray<{ name: string; comment: string }>;
}

export interface Schema {
  tables: readonly Table[];
  views: readonly View[];
}
