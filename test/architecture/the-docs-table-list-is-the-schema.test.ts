// docs/warehouse.md's list of the warehouse's tables ("The warehouse", each row naming its tables in backquotes in
// its first cell) names every table the schema declares, and none it does not: the list had fallen behind by five
// (tracking_runs, tracking_reads, spool_segments, deliveries_parked, schema_migrations) while the schema grew.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SCHEMA } from '../../src/warehouse/schema/index.js';

/** The table names of the list between `from` and `to` in `doc`. */
function tablesListed(doc: string, from = '## The warehouse', to = '### The merge rule'): string[] {
  const start = doc.indexOf(from);
  const end = doc.indexOf(to, start);
  if (start < 0 || end < 0) throw new Error(`docs/warehouse.md has no section from "${from}" to "${to}"`);
  return doc.slice(start, end).split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
}

it('names every table of the schema once, and nothing else', () => {
  const listed = tablesListed(readFileSync('docs/warehouse.md', 'utf8'));
  expect([...listed].sort()).toEqual(SCHEMA.tables.map((t) => t.name).sort());
});
