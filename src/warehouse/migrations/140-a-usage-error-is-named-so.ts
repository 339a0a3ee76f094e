import { sql, type Migration } from './migration.js';

// A run a usage or configuration error stopped (exit 2) was recorded `failed`, a word that says nothing of why and
// reads like a stage's `failed` (it could not go on); it is `usage-error` now (pipeline/outcome.ts, RunStatus). The
// runs already recorded are named so too, in `runs.status` and in the summary `runs.summary` keeps (what a report
// written again reads), so that one status has one word in a warehouse whatever night wrote it.
export const migration: Migration = {
  version: 140,
  name: 'a usage error is named so',
  changes: [
    sql(`UPDATE runs SET status = 'usage-error',
  summary = CASE WHEN json_extract_string(summary, '$.status') = 'failed' THEN json_merge_patch(summary, '{"status":"usage-error"}') ELSE summary END
WHERE status = 'failed'`),
  ],
};
