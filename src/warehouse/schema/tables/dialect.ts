import type { Table } from '../types.js';

const upstreamDialects: Table = {
  name: 'upstream_dialects',
  comment: 'What each upstream (by base address) was seen to accept: page size, sort names, envelope, rate headers, resources refused (README, "The provider\'s dialect").',
  key: ['base_url'],
  columns: [
    { name: 'base_url', type: 'VARCHAR', notNull: true, comment: 'the requests base address probed (no credentials, no query)' },
    { name: 'dialect', type: 'JSON', notNull: true, comment: 'what was learned (src/api/dialect.ts, Dialect)' },
    { name: 'learned_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was learned' },
    { name: 'probe_calls', type: 'INTEGER', notNull: true, comment: 'calls the probe made' },
    { name: 'run_id', type: 'VARCHAR', comment: 'the run (or doctor) that learned it' },
    { name: 'source', type: 'VARCHAR', notNull: true, comment: 'probe (doctor or the start of a night) or sweep (a check of the night taught it)' },
  ],
};

export const dialectTables: readonly Table[] = [upstreamDialects];
