import { addColumnDdl, dropNotNullDdl, tableDdl } from '../schema/ddl.js';
import { ident } from '../schema/sql.js';
import { columnOf, SCHEMA, tableOf } from '../schema/index.js';
import type { Schema, Table } from '../schema/types.js';
import { MIGRATIONS } from './index.js';
import type { Change, Migration } from './migration.js';

// The SQL of the history, from the declaration (migration.ts says why). A table as it stood at some step is
// today's declaration with every later step undone: a later `add` taken off, a later `dropNotNull` put back. So
// migration 1 creates `requests` without the columns migration 50 adds, whatever the declaration gains after.
// A change the history cannot undo from the declaration alone (a column's type changed, a column or table
// dropped, a key changed) is a new kind of Change that carries what was there before (`recreate`).

interface Step { version: number; change: Change }

/** Every step of `history` in the order they apply. */
function stepsOf(history: readonly Migration[]): Step[] {
  return [...history].sort((a, b) => a.version - b.version).flatMap((m) => m.changes.map((change) => ({ version: m.version, change })));
}

const where = (s: Step): string => `migration ${s.version} (${s.change.kind} ${'table' in s.change ? s.change.table : ''})`;

/** `t` as it stood before `step`, which changes it; undefined before the step that created it. */
function undo(t: Table, step: Step): Table | undefined {
  const c = step.change;
  if (c.kind === 'create') return undefined;
  if (c.kind === 'recreate') return c.before;
  if (c.kind === 'add') {
    for (const name of c.columns) {
      if (!t.columns.some((x) => x.name === name)) throw new Error(`${where(step)} adds ${t.name}.${name}, which the declaration does not have (src/warehouse/schema/)`);
    }
    return { ...t, columns: t.columns.filter((x) => !c.columns.includes(x.name)) };
  }
  if (c.kind === 'dropNotNull') {
    const col = t.columns.find((x) => x.name === c.column);
    if (!col || col.notNull) throw new Error(`${where(step)} lets ${t.name}.${c.column} hold NULL, which the declaration says it cannot, or does not have`);
    return { ...t, columns: t.columns.map((x) => (x === col ? { ...x, notNull: true } : x)) };
  }
  return t;
}

/** The declared table `name` as it stood right after `steps[index]` (index -1: before the first step). */
function tableAfter(name: string, steps: readonly Step[], index: number, schema: Schema): Table | undefined {
  let t: Table | undefined = tableOf(name, schema);
  for (let k = steps.length - 1; k > index; k--) {
    const c = steps[k].change;
    if (c.kind === 'sql' || c.table !== name) continue;
    if (!t) throw new Error(`${where(steps[k])} changes table ${name} before a later migration creates it`);
    t = undo(t, steps[k]);
  }
  return t;
}

/** The statement of `steps[index]`. */
function statementOf(steps: readonly Step[], index: number, schema: Schema): string[] {
  const step = steps[index];
  const c = step.change;
  if (c.kind === 'sql') return [c.sql];
  const t = tableAfter(c.table, steps, index, schema);
  if (!t) throw new Error(`${where(step)}: table ${c.table} is created twice, or changed before it is created`);
  const opts = 'ifNotExists' in c && c.ifNotExists ? { ifNotExists: true } : {};
  if (c.kind === 'create') return [tableDdl(t, opts)];
  if (c.kind === 'recreate') {
    // The old table steps aside under another name, the new one is made, the rows move, the old one goes: one
    // transaction (the migration's), so a file never holds half of it.
    const old = `${t.name}_before_${step.version}`;
    return [`ALTER TABLE ${ident(t.name)} RENAME TO ${ident(old)}`, tableDdl(t), c.move(ident(old)), `DROP TABLE ${ident(old)}`];
  }
  if (c.kind === 'dropNotNull') return [dropNotNullDdl(t.name, c.column)];
  return c.columns.map((name) => addColumnDdl(t.name, columnOf(t, name), opts));
}

/**
 * The statements of migration `m`, its DDL from `schema` as it stood at each of its steps. `history` is every
 * migration there is (`m` takes the place of one of the same version): a table's shape at a step depends on the
 * steps after it, also when a file is only brought to an older version.
 */
export function migrationStatements(m: Migration, history: readonly Migration[] = MIGRATIONS, schema: Schema = SCHEMA): string[] {
  const steps = stepsOf([...history.filter((h) => h.version !== m.version), m]);
  return steps.flatMap((s, i) => (s.version === m.version ? statementOf(steps, i, schema) : []));
}

/** The table `name` as it stood once migration `version` had run (0: before any), or undefined if not yet made. */
function tableAt(name: string, version: number, history: readonly Migration[] = MIGRATIONS, schema: Schema = SCHEMA): Table | undefined {
  const steps = stepsOf(history);
  return tableAfter(name, steps, steps.findLastIndex((s) => s.version <= version), schema);
}

/** The ledger of applied migrations, made before any of them (warehouse.ts), as it stood then. */
export function ledgerStatement(history: readonly Migration[] = MIGRATIONS, schema: Schema = SCHEMA): string {
  return tableDdl(tableAt('schema_migrations', 0, history, schema)!, { ifNotExists: true });
}
