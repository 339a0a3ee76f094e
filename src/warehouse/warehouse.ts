import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { EtlError } from '../shared/errors.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import { ledgerStatement, migrationStatements } from './migrations/statements.js';
import { loadBudget, parseDuckSize, type LoadBudget } from './load-budget.js';
import { ident, lit } from './schema/sql.js';
import { firstLine } from './wal-recovery.js';

export type SqlParams = readonly unknown[] | Record<string, unknown>;

export interface WarehouseOptions {
  /** Open the file read-only (no migrations then). Default false. */
  readOnly?: boolean;
  /** Apply pending migrations on open. Default true (ignored when readOnly). */
  migrate?: boolean;
  /** DuckDB worker threads. Default: DuckDB's own (number of cores). */
  threads?: number;
  /** DuckDB memory limit, e.g. '1GB'. Default: DuckDB's own (80% of RAM). */
  memoryLimit?: string;
  /** Test seam: migrations to apply instead of the built-in list (their DDL still from the declaration). Default MIGRATIONS. */
  migrations?: readonly Migration[];
}

/**
 * DuckDB settings every warehouse opens with, measured on a 100k-lawsuit first run (docs/benchmarks.md, "Benchmarks"):
 * - checkpoint_threshold: DuckDB checkpoints when the WAL reaches 16 MB by default, and each checkpoint
 *   rewrites the row groups still being filled, so a long load checkpointing every other batch did the same
 *   work many times (10k lawsuits: 5.8 s of commits against 3.4 s with one checkpoint at the end). The WAL is
 *   on disk and the data it holds is evictable from the buffer pool, so a large threshold costs no memory.
 * - allocator_flush_threshold / allocator_background_threads: DuckDB's allocator keeps up to 128 MB of freed
 *   memory for reuse by default, outside memory_limit; flushing it early keeps the process's RSS near the limit.
 * Together: peak RSS 522 MB -> 440 MB and 351 s -> 259 s for 89k lawsuits.
 */
const ENGINE_SETTINGS: Record<string, string> = {
  checkpoint_threshold: '1GB',
  allocator_flush_threshold: '8MB',
  allocator_background_threads: 'true',
};

/**
 * Rows a row group of the file holds: DuckDB's default is 122,880. A checkpoint writes a row group still being
 * filled whole, each column of it in memory at once, and the night's tables hold each lawsuit's JSON twice
 * (responses_raw.item, lawsuits.raw): a night of 92,904 lawsuits, one row group each, peaked at 640 MB in its last
 * checkpoint against 399 at 21,293 (memory part of `npm run bench`, 2026-11-28); 93,000 rows of 4.5 KB texts,
 * checkpointed: 741 MB at the default, 453 at 16,384. The size is an option of ATTACH only (DuckDB 1.5: no setting
 * at the instance's creation), hence the file attached to an in-memory instance (Warehouse.open). A file with other
 * row groups opens as any DuckDB file: the size is how new rows are grouped, not a format.
 */
const ROW_GROUP_SIZE = 16_384;

export class WarehouseError extends EtlError {
  constructor(code: string, message: string, cause?: unknown) {
    super(code, message, { cause });
    this.name = 'WarehouseError';
  }
}

/**
 * A thin shell over one DuckDB connection. One connection means one transaction at a time: transactions are
 * queued, and calls made inside a transaction's callback (tracked with AsyncLocalStorage) run inline in it.
 */
export class Warehouse {
  readonly path: string;
  private readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  private readonly inTx = new AsyncLocalStorage<true>();
  private txQueue: Promise<unknown> = Promise.resolve();
  private readonly migrations: readonly Migration[];
  /** How much the loader takes on at once, from DuckDB's memory limit (load-budget.ts). */
  budget: LoadBudget = loadBudget(128 * 2 ** 20);

  private constructor(path: string, instance: DuckDBInstance, connection: DuckDBConnection, migrations: readonly Migration[]) {
    this.path = path;
    this.instance = instance;
    this.connection = connection;
    this.migrations = migrations;
  }

  static async open(path: string, opts: WarehouseOptions = {}): Promise<Warehouse> {
    const config: Record<string, string> = {};
    if (opts.threads !== undefined) config.threads = String(opts.threads);
    if (opts.memoryLimit !== undefined) config.memory_limit = opts.memoryLimit;
    Object.assign(config, ENGINE_SETTINGS);
    const file = path !== ':memory:';
    // Where DuckDB spills when the file is opened as the instance's own (an in-memory instance would spill to ./.tmp).
    if (file) config.temp_directory = `${path}.tmp`;
    if (file && !opts.readOnly) mkdirSync(dirname(path), { recursive: true });
    let instance: DuckDBInstance | undefined;
    let connection: DuckDBConnection | undefined;
    try {
      instance = await DuckDBInstance.create(':memory:', config);
      connection = await instance.connect();
      if (file) await attachAsDefault(connection, path, opts.readOnly === true);
    } catch (e) {
      connection?.closeSync();
      instance?.closeSync();
      throw new WarehouseError('WAREHOUSE_OPEN', `cannot open the warehouse ${path}: ${firstLine(e)}`, e);
    }
    const wh = new Warehouse(path, instance, connection, opts.migrations ?? MIGRATIONS);
    const [limit] = await wh.all<{ v: string }>(`SELECT current_setting('memory_limit') AS v`);
    wh.budget = loadBudget(parseDuckSize(limit.v) ?? 128 * 2 ** 20);
    if (!opts.readOnly && opts.migrate !== false) {
      try {
        await wh.migrate();
      } catch (e) {
        wh.connection.closeSync();
        instance.closeSync();
        throw e;
      }
    }
    return wh;
  }

  /**
   * Applies every migration not yet in schema_migrations, each in its own transaction and checkpointed at once.
   * Returns the versions applied.
   *
   * The checkpoint is not optional: DuckDB 1.5.5 and 1.5.6 cannot replay from the WAL an ALTER (a COMMENT ON
   * COLUMN, an ADD COLUMN) of a table that has a function DEFAULT such as current_timestamp ("Failure while
   * replaying WAL ... GetDefaultDatabase with no default database set"), so a catalog change left in the WAL
   * makes the file unopenable after a kill (docs/warehouse.md, "The DuckDB WAL bug").
   */
  async migrate(): Promise<number[]> {
    const created = (await this.all<{ n: number }>(
      `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = current_database() AND table_name = 'schema_migrations'`))[0].n === 0;
    await this.run(ledgerStatement());
    if (created) await this.checkpoint();
    const done = new Set((await this.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    // Every pending migration's statements before the first runs: a declaration the history cannot be derived
    // from fails here, with the file untouched.
    const pending = [...this.migrations].sort((a, b) => a.version - b.version).filter((m) => !done.has(m.version))
      .map((m) => ({ ...m, statements: migrationStatements(m) }));
    const applied: number[] = [];
    for (const m of pending) {
      await this.transaction(async () => {
        if (m.statements.length > 0) await this.run(m.statements.join(';\n'));
        await this.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, current_timestamp)', [m.version, m.name]);
      });
      await this.checkpoint();
      applied.push(m.version);
    }
    return applied;
  }

  /** Writes everything committed into the file and empties the WAL. Not inside a transaction (DuckDB refuses). */
  async checkpoint(): Promise<void> {
    try {
      await this.run('CHECKPOINT');
    } catch (e) {
      if (!/out of memory|failed to (pin|allocate)/i.test((e as Error).message)) throw e;
      throw new WarehouseError('WAREHOUSE_MEMORY', `DuckDB could not checkpoint ${this.path} within its memory limit (${firstLine((e as Error).cause ?? e)}): `
        + 'raise LAWSUIT_DUCKDB_MEMORY_LIMIT (docs/operating.md, "Memory") and run again; the work copy is kept', e);
    }
  }

  /**
   * The connection to itself: inside a transaction's callback, at once; otherwise after the queued transactions.
   * A statement issued from outside while a transaction is open (a ledger write from the poller while pages
   * load) would otherwise run on the one connection in the middle of it, inside the other's transaction,
   * and DuckDB refuses a query while another is pending ("unsuccessful or closed pending query result").
   */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTx.getStore()) return fn();
    const turn = this.txQueue.then(() => this.inTx.run(true, fn));
    this.txQueue = turn.catch(() => undefined);
    return turn;
  }

  /** Runs a statement (or several, without params); returns the rows changed by the last one. */
  async run(sql: string, params?: SqlParams): Promise<number> {
    return this.exclusive(async () => {
      try {
        const r = await this.connection.run(sql, toDuckParams(params));
        return r.rowsChanged;
      } catch (e) {
        throw new WarehouseError('WAREHOUSE_SQL', `warehouse statement failed (${sqlHead(sql)}): ${(e as Error).message}`, e);
      }
    });
  }

  /** Rows as plain JS objects; BIGINTs that fit a double come back as numbers, timestamps as Date. */
  async all<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T[]> {
    return this.exclusive(() => this.query<T>(sql, params));
  }

  private async query<T>(sql: string, params?: SqlParams): Promise<T[]> {
    try {
      const reader = await this.connection.runAndReadAll(sql, toDuckParams(params));
      return reader.getRowObjectsJS().map((row) => {
        for (const k of Object.keys(row)) {
          const v = row[k];
          if (typeof v === 'bigint' && v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)) row[k] = Number(v);
        }
        return row as T;
      });
    } catch (e) {
      throw new WarehouseError('WAREHOUSE_SQL', `warehouse query failed (${sqlHead(sql)}): ${(e as Error).message}`, e);
    }
  }

  /** Runs fn inside BEGIN/COMMIT, rolling back if it throws. Nested calls join the outer transaction. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTx.getStore()) return fn();
    return this.exclusive(async () => {
      await this.run('BEGIN TRANSACTION');
      try {
        const out = await fn();
        await this.run('COMMIT');
        return out;
      } catch (e) {
        await this.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  /** Closes the connection and the database (a CHECKPOINT first, so the file is complete on its own). */
  async close(): Promise<void> {
    await this.txQueue;
    try {
      await this.connection.run('CHECKPOINT');
    } catch {
      // read-only files cannot checkpoint; nothing to flush then
    }
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/**
 * The file attached to the instance, with the row groups of ROW_GROUP_SIZE, and made the default database under
 * the name DuckDB gives a file opened as the instance's own (its stem), so that every statement reads as before.
 */
async function attachAsDefault(connection: DuckDBConnection, path: string, readOnly: boolean): Promise<void> {
  const options = [`ROW_GROUP_SIZE ${ROW_GROUP_SIZE}`, ...(readOnly ? ['READ_ONLY'] : [])].join(', ');
  try {
    await connection.run(`ATTACH ${lit(path)} (${options})`);
  } catch (e) {
    // A file named memory.* would take the name of the instance's own database: it gets another.
    if (!/already exists/.test(firstLine(e))) throw e;
    await connection.run(`ATTACH ${lit(path)} AS warehouse (${options})`);
  }
  const reader = await connection.runAndReadAll(`SELECT database_name FROM duckdb_databases() WHERE NOT internal AND database_name <> 'memory'`);
  const [row] = reader.getRowObjects();
  await connection.run(`USE ${ident(String(row.database_name))}`);
}

/** The start of a statement, to say in an error which one failed. */
function sqlHead(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > 70 ? `${flat.slice(0, 70)}...` : flat;
}

/** Dates become ISO text and objects JSON text, so callers pass plain JS; DuckDB casts them in the statement. */
function toParam(v: unknown): DuckDBValue {
  if (v === undefined || v === null) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  return v as DuckDBValue;
}

function toDuckParams(params: SqlParams | undefined): DuckDBValue[] | Record<string, DuckDBValue> | undefined {
  if (params === undefined) return undefined;
  if (Array.isArray(params)) return params.map(toParam);
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, toParam(v)]));
}
