import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { ExportPrivacy } from '../shared/config.js';
import { openPrivacyScope, privacyApplies, type PrivacyScope } from './privacy.js';
import { EXPORT_TABLES, type ExportTable } from './schema/exports.js';
import { WarehouseError, type Warehouse } from './warehouse.js';

// Parquet exports: one folder per table, zstd, the warehouse's own types (TIMESTAMPTZ -> timestamp adjusted to
// UTC, DECIMAL(18,2) -> decimal, BOOLEAN -> boolean). The whole export is written under a temporary sibling
// folder and then renamed into place, so a reader sees the previous export or the new one, never half of one.
// Which tables and columns go out is the schema declaration's (schema/, a table's `export`): left out are
// responses_raw (the API's payloads as received; warehouse-only) and the `raw` JSON of lawsuits, parties and
// steps (every one of their fields is a column already). JSON columns go out as text. With an export privacy
// (privacy.ts), each table's select is wrapped: lawsuits under secrecy left out, people's documents and names
// pseudonymised; the columns stay the same, so a BI model reads either.

interface ExportOptions {
  /** Tables to write (folder names of EXPORT_TABLES). Default all. */
  tables?: readonly string[];
  /** Rows per Parquet row group. Default DuckDB's (122880). */
  rowGroupSize?: number;
  /** What the exports may show of people and of lawsuits under secrecy. Default everything. */
  privacy?: ExportPrivacy;
}

interface ExportResult {
  dir: string;
  tables: Array<{ table: string; rows: number; files: string[] }>;
  /** Lawsuits left out for their secrecy level (with their rows in every table). */
  withheldLawsuits: number;
}

/**
 * Writes the exports. Must be called under the run lock (the `run` and `export` commands hold it): it removes
 * the temporary folders a killed export left, which only a writer holding the lock can own.
 */
export async function exportParquet(wh: Warehouse, dir: string, opts: ExportOptions = {}): Promise<ExportResult> {
  const target = resolve(dir);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  removeExportLeftovers(target);
  const tag = randomBytes(4).toString('hex');
  const tmp = join(parent, `.${basename(target)}.tmp-${tag}`);
  const old = join(parent, `.${basename(target)}.old-${tag}`);
  const wanted: readonly ExportTable[] = opts.tables ? EXPORT_TABLES.filter((t) => opts.tables!.includes(t.table)) : EXPORT_TABLES;
  const out: ExportResult = { dir: target, tables: [], withheldLawsuits: 0 };
  mkdirSync(tmp);
  let privacy: PrivacyScope | undefined;
  try {
    if (privacyApplies(opts.privacy)) {
      privacy = await openPrivacyScope(wh, opts.privacy);
      out.withheldLawsuits = privacy.withheldLawsuits;
    }
    for (const t of wanted) {
      const folder = join(tmp, t.table);
      mkdirSync(folder);
      const select = privacy ? privacy.select(t) : t.select;
      const rows = (await wh.all<{ n: number }>(`SELECT count(*) AS n FROM (${select})`))[0].n;
      const common = `FORMAT parquet, COMPRESSION zstd${opts.rowGroupSize ? `, ROW_GROUP_SIZE ${opts.rowGroupSize}` : ''}`;
      if (t.partitionBy && rows > 0) {
        await wh.run(`COPY (${select}) TO '${sqlPath(folder)}' (${common}, PARTITION_BY (${t.partitionBy}), WRITE_PARTITION_COLUMNS true, OVERWRITE_OR_IGNORE true)`);
      } else {
        // An empty table still gets a file, so a reader finds the folder's schema.
        await wh.run(`COPY (${select}) TO '${sqlPath(join(folder, 'data_0.parquet'))}' (${common})`);
      }
      out.tables.push({ table: t.table, rows, files: listFiles(folder).map((f) => join(t.table, relative(folder, f))) });
    }
    await privacy?.close();
    privacy = undefined;
    // The swap: the old export steps aside, the new one takes its name, the old one is removed.
    if (existsSync(target)) renameSync(target, old);
    renameSync(tmp, target);
    rmSync(old, { recursive: true, force: true });
    return out;
  } catch (e) {
    await privacy?.close().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(target) && existsSync(old)) renameSync(old, target);
    throw e instanceof WarehouseError ? e : new WarehouseError('WAREHOUSE_EXPORT', `export to ${target} failed: ${(e as Error).message}`, e);
  }
}

/**
 * What a killed export leaves beside `target`: `.<name>.tmp-<tag>` (an export half written: removed) and
 * `.<name>.old-<tag>` (the previous export stepped aside; if the kill came before the new one took its name,
 * it is the last complete export and goes back in place). Returns the names removed or restored.
 */
function removeExportLeftovers(target: string): { removed: string[]; restored?: string } {
  const parent = dirname(target);
  const name = basename(target);
  const out: { removed: string[]; restored?: string } = { removed: [] };
  if (!existsSync(parent)) return out;
  const mine = readdirSync(parent).filter((f) => f.startsWith(`.${name}.tmp-`) || f.startsWith(`.${name}.old-`));
  const olds = mine.filter((f) => f.startsWith(`.${name}.old-`)).sort((a, b) => statSync(join(parent, b)).mtimeMs - statSync(join(parent, a)).mtimeMs);
  if (!existsSync(target) && olds.length > 0) {
    renameSync(join(parent, olds[0]), target);
    out.restored = olds[0];
  }
  for (const f of mine) {
    if (f === out.restored) continue;
    rmSync(join(parent, f), { recursive: true, force: true });
    out.removed.push(f);
  }
  return out;
}

function sqlPath(p: string): string {
  return p.replace(/'/g, "''");
}

function listFiles(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const p = join(folder, name);
    if (statSync(p).isDirectory()) found.push(...listFiles(p));
    else found.push(p);
  }
  return found;
}
