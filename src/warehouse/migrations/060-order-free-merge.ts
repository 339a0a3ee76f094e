import { addColumns, sql, type Migration } from './migration.js';

// The merge became a function of the set of payloads (merge.ts): a row keeps the version of its newest payload
// and the versions of the values that came from older ones, and a lawsuit says which lists some payload
// carried. A warehouse made before knew neither: each row is taken as its newest payload's whole (its version
// from the columns that make one, the lists it has rows of as carried). That is what the old merge kept in the
// common case; `lawsuit-etl rebuild` derives the exact rows from responses_raw.
const time = (c: string): string =>
  `CASE WHEN ${c} IS NULL OR ${c} = '-infinity' THEN '0' WHEN ${c} = 'infinity' THEN '2' ELSE '1' || lpad(to_hex((epoch_us(${c})::HUGEINT + 9223372036854775808)::UBIGINT), 16, '0') END`;
const VERSION_OF_STORED = `concat(${time('crawled_at')}, ${time('updated_at')}, ${time('response_created_at')}, coalesce(response_id, ''))`;

const LISTS = ['parties', 'subjects', 'classifications', 'courts', 'attachments'];

export const migration: Migration = {
  version: 60,
  name: 'merge by payload version, whatever the order',
  changes: [
    addColumns('lawsuits', [...LISTS.map((l) => `has_${l}`), 'payload_version', 'column_versions']),
    addColumns('steps', ['payload_version', 'column_versions']),
    sql(`
UPDATE lawsuits SET payload_version = ${VERSION_OF_STORED};
${LISTS.map((l) => `UPDATE lawsuits SET has_${l} = true FROM (SELECT DISTINCT code, instance FROM ${l}) c WHERE lawsuits.code = c.code AND lawsuits.instance = c.instance;`).join('\n')}
UPDATE steps SET payload_version = l.payload_version FROM lawsuits l WHERE steps.code = l.code AND steps.instance = l.instance;`),
  ],
};
