import { SCHEMA } from './index.js';
import type { Schema, StageTable, StageType } from './types.js';

type StageColumns = Record<StageTable, ReadonlyArray<readonly [string, StageType]>>;

/**
 * The staging layout of each row kind, in appender order: a table's staged columns, then its `extra` ones; the
 * list flags of the child tables are columns of stg_lawsuits (which lists the payload carried at all).
 */
export function stageColumns(schema: Schema = SCHEMA): StageColumns {
  const out: Partial<Record<StageTable, Array<readonly [string, StageType]>>> = {};
  for (const t of schema.tables) {
    if (!t.stage) continue;
    if (out[t.stage.as]) throw new Error(`two tables are staged as stg_${t.stage.as} (src/warehouse/schema/)`);
    out[t.stage.as] = [...t.columns.flatMap((c) => (c.stage ? [[c.name, c.stage] as const] : [])), ...(t.stage.extra ?? [])];
  }
  const flags = listFlags(schema);
  if (!out.lawsuits) throw new Error('no table is staged as stg_lawsuits (src/warehouse/schema/)');
  // A flag the lawsuits table keeps as a column of its own is staged as that column already.
  out.lawsuits.push(...flags.filter((f) => !out.lawsuits!.some(([c]) => c === f)).map((f) => [f, 'BOOLEAN'] as const));
  return out as StageColumns;
}

/** The list flags of the child tables (columns of stg_lawsuits), each once, in declaration order. */
export function listFlags(schema: Schema = SCHEMA): string[] {
  return [...new Set(schema.tables.flatMap((t) => (t.stage?.list ? [t.stage.list] : [])))];
}

/** The staging layout of the warehouse's own schema. */
export const STAGE_COLUMNS: StageColumns = stageColumns();
