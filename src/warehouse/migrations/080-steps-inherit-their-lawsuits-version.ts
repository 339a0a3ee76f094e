import { sql, type Migration } from './migration.js';

// A step whose version is its lawsuit's stores NULL (merge.ts, Source.parent): a newer crawl that repeats a step
// as it was then writes nothing to it, where every such step had its version updated (10,000 lawsuits of 25
// steps: 250,000 updates a second night). Migration 60 gave every step its lawsuit's version; the same steps now
// say so with NULL, the one form the merge writes, so that `rebuild` and an incremental load still give equal tables.
export const migration: Migration = {
  version: 80,
  name: 'steps inherit their lawsuit\'s version',
  changes: [
    sql(`UPDATE steps SET payload_version = NULL FROM lawsuits l
WHERE steps.code = l.code AND steps.instance = l.instance AND steps.payload_version = l.payload_version;`),
  ],
};
