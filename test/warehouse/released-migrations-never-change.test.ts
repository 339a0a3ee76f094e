import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/warehouse/migrations/index.js';
import { ledgerStatement, migrationStatements } from '../../src/warehouse/migrations/statements.js';
import { SCHEMA } from '../../src/warehouse/schema/index.js';
import type { Schema } from '../../src/warehouse/schema/types.js';

// A warehouse in the field ran each migration it records in schema_migrations once, as it was then, and the
// next migration must find exactly what it left. A migration's DDL is generated from the declaration as it
// stood at its version (src/warehouse/migrations/statements.ts), so an edit of a declared table or column that
// no new migration accounts for would change what an old migration makes: files made from then on would differ
// from those in the field, and no test built from the declaration alone would see it. Each released migration
// is held here to the statements it ran when it was released (0: the ledger of migrations itself).

const RELEASED: Readonly<Record<number, string>> = {
  0: 'b3d03e22c1d47039',
  1: '1d7463bc6e913551',
  2: '2a208fa87c44b7c1',
  20: 'c2cff437d7d520db',
  21: '05f3ef77b8affefb',
  22: '60a46c2d7df4a9bf',
  30: '47e3beefe405212e',
  31: 'c80702946aac9c34',
  40: '92681924eb744b3f',
  41: '6a3d2f9178762f38',
  42: '96d3427671598330',
  50: '596445768b28f461',
  51: '6b6e1b1ce6d53a47',
  52: 'dae60af1eed143fa',
  60: '50f6f855e8ec10e4',
  61: '0e43830fd43a2bec',
  70: '3d8db5f513bed011',
  75: '7c15563a2454afb2',
  80: '868066fae8470d45',
  90: '7a67fe257f8632ab',
  81: '41e7b9cee1e6937b',
  100: '775d0597a57e4937',
  101: '67115e363ba9ecba',
  102: '823245746dde10f2',
  110: '5b35a6149218fb0d',
  120: '239f5dab7553c59d',
  130: '83efdb50c6ea922a',
  140: '21afd0506f57983f',
};

const fingerprint = (statements: readonly string[]): string => createHash('sha256').update(statements.join(';\n')).digest('hex').slice(0, 16);

/** Each migration's fingerprint under `schema`, by version (0: the ledger). */
const fingerprints = (schema: Schema = SCHEMA): Record<number, string> => ({
  0: fingerprint([ledgerStatement(MIGRATIONS, schema)]),
  ...Object.fromEntries(MIGRATIONS.map((m) => [m.version, fingerprint(migrationStatements(m, MIGRATIONS, schema))])),
});

it('every migration is recorded here once released', () => {
  const unrecorded = MIGRATIONS.filter((m) => !(m.version in RELEASED))
    .map((m) => `migration ${m.version} (${m.name}) is new: once it ships, record it in RELEASED as ${m.version}: '${fingerprint(migrationStatements(m))}'`);
  expect(unrecorded).toEqual([]);
});

it('every released migration runs the statements it ran when released', () => {
  const now = fingerprints();
  const changed = Object.entries(RELEASED).filter(([v, fp]) => now[Number(v)] !== fp).map(([v]) => {
    const m = MIGRATIONS.find((x) => x.version === Number(v));
    const statements = m ? migrationStatements(m) : [ledgerStatement()];
    return `migration ${v} (${m?.name ?? 'the ledger'}) no longer runs what it ran when released. A change to a declared `
      + `table or column needs a new migration that makes it (docs/development.md, "Adding a column"); its statements are now:\n${statements.join(';\n')}`;
  });
  expect(changed).toEqual([]);
});

it('sees a column declared without a migration that adds it', () => {
  // The column lands in the CREATE TABLE of migration 1, which files in the field ran without it.
  const edited: Schema = {
    ...SCHEMA,
    tables: SCHEMA.tables.map((t) => (t.name === 'runs' ? { ...t, columns: [...t.columns, { name: 'host', type: 'VARCHAR', comment: 'where it ran' }] } : t)),
  };
  const now = fingerprints(edited);
  expect(now[1]).not.toBe(RELEASED[1]);
  expect(Object.keys(RELEASED).filter((v) => now[Number(v)] !== RELEASED[Number(v)])).toEqual(['1']);
});
