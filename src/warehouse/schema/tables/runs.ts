import { C } from '../common.js';
import type { Table } from '../types.js';

const schemaMigrations: Table = {
  name: 'schema_migrations',
  comment: 'Schema versions applied to this file (one row per migration).',
  key: ['version'],
  columns: [
    { name: 'version', type: 'INTEGER', notNull: true, comment: 'migration number' },
    { name: 'name', type: 'VARCHAR', notNull: true, comment: 'what the migration does' },
    { name: 'applied_at', type: 'TIMESTAMPTZ', notNull: true, default: 'current_timestamp', comment: 'when it was applied' },
  ],
};

const runs: Table = {
  name: 'runs',
  comment: 'One row per run of the tool (nightly run, transfer, query, track): when, how it ended and what it did.',
  key: ['run_id'],
  export: {},
  columns: [
    { name: 'run_id', type: 'VARCHAR', notNull: true, comment: 'run identifier: start time (UTC, compact ISO) and a random suffix; sorts by start' },
    { name: 'started_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when the run started' },
    { name: 'finished_at', type: 'TIMESTAMPTZ', comment: 'when the run finished (NULL: still running or crashed)' },
    { name: 'status', type: 'VARCHAR', notNull: true, comment: 'ok, partial (some documents, files or stages failed or were refused), refused (the key was refused), interrupted (stopped by SIGTERM; what was loaded is published), unreachable (nothing reached the upstream all night: nothing new published, exit 75), usage-error (a usage or configuration error stopped it, exit 2) or running (still running, or killed: the next run closes it)' },
    { name: 'command', type: 'VARCHAR', comment: 'the command that started the run (run, transfer, query, track)' },
    { name: 'calls', type: 'INTEGER', comment: 'API calls made' },
    { name: 'calls_by_status', type: 'JSON', comment: 'API calls per HTTP status (JSON object)' },
    { name: 'documents', type: 'INTEGER', comment: 'valid documents in the list' },
    { name: 'rejected', type: 'INTEGER', comment: 'lines of the list rejected' },
    { name: 'requests_submitted', type: 'INTEGER', comment: 'asynchronous requests submitted (paid)' },
    { name: 'requests_completed', type: 'INTEGER', comment: 'requests completed and collected' },
    { name: 'lawsuits', type: 'INTEGER', comment: 'lawsuits seen by this run' },
    { name: 'parties', type: 'INTEGER', comment: 'parties in the warehouse after the run' },
    { name: 'steps', type: 'INTEGER', comment: 'steps in the warehouse after the run' },
    { name: 'errors', type: 'INTEGER', comment: 'failures listed in the summary' },
    { name: 'summary', type: 'JSON', privacy: 'withheld', comment: 'the whole run summary as printed (JSON)' },
    { name: 'source', type: 'VARCHAR', comment: 'where a night\'s lawsuits came from: searches (a search per document) or trackings (the runs of each document\'s tracking); NULL for other commands' },
    { name: 'trackings_created', type: 'INTEGER', comment: 'trackings night: trackings created for listed documents without one' },
    { name: 'trackings_paused', type: 'INTEGER', comment: 'trackings night: trackings paused (their document left the list)' },
    { name: 'trackings_resumed', type: 'INTEGER', comment: 'trackings night: paused trackings resumed (their document listed again)' },
    { name: 'tracking_runs_read', type: 'INTEGER', comment: 'trackings night: runs of our trackings whose responses were read' },
    { name: 'tracking_responses', type: 'INTEGER', comment: 'trackings night: responses of those runs loaded' },
    { name: 'lawsuit_trackings_created', type: 'INTEGER', comment: 'trackings night: lawsuit trackings (lawsuit_cnj) created for lawsuits kept whole, before and after the night\'s lawsuit-level reads' },
    { name: 'lawsuit_trackings_paused', type: 'INTEGER', comment: 'trackings night: lawsuit trackings paused (no listed document finds the lawsuit any more, or LAWSUIT_DETAIL leaves it)' },
    { name: 'lawsuit_trackings_resumed', type: 'INTEGER', comment: 'trackings night: paused lawsuit trackings resumed' },
  ],
};

const runStages: Table = {
  name: 'run_stages',
  comment: 'One row per stage of every run (rebuild, documents, trackings, search, lawsuits, lawsuit-trackings, trackings-cursor, attachments, transfer, changes, query, track, exports, publish): how each ended and what it did.',
  key: ['run_id', 'stage'],
  columns: [
    { name: 'run_id', type: 'VARCHAR', notNull: true, comment: 'the run (runs.run_id)' },
    { name: 'stage', type: 'VARCHAR', notNull: true, comment: 'the stage: rebuild, documents, trackings (a trackings night: the list reconciled with the trackings, their runs read), search, lawsuits (the lawsuit-level reads of the lawsuits not whole), lawsuit-trackings (a trackings night: the trackings of the lawsuits read whole that night made), trackings-cursor (a trackings night: its reading of the runs moved past its own answers when no run can lie among them), attachments (the attachments\' files downloaded), transfer, changes, query, track, exports or publish' },
    { name: 'position', type: 'INTEGER', notNull: true, comment: 'order of the stage in its run (0-based)' },
    { name: 'status', type: 'VARCHAR', notNull: true, comment: 'ok (done; some items may have failed, see failures), failed (it could not go on, or every item it tried failed), refused (the provider refused the resource or the key), skipped (not run: see error_message) or interrupted (stopped by SIGTERM, or killed while it ran)' },
    { name: 'started_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when the stage started' },
    { name: 'finished_at', type: 'TIMESTAMPTZ', comment: 'when it ended (NULL: the run was killed while it ran)' },
    { name: 'counts', type: 'JSON', comment: 'the stage\'s figures (JSON object of counts)' },
    { name: 'failures', type: 'INTEGER', notNull: true, default: '0', comment: 'documents, files or requests that failed inside the stage' },
    { name: 'error_code', type: 'VARCHAR', comment: 'constant code of what ended or skipped the stage' },
    { name: 'error_message', type: 'VARCHAR', comment: 'what happened and what to do' },
  ],
};

const rejectedInputs: Table = {
  name: 'rejected_inputs',
  comment: 'Lines of the documents list that could not be used, with the reason.',
  key: ['run_id', 'line'],
  export: {},
  columns: [
    { name: 'run_id', type: 'VARCHAR', notNull: true, comment: C.run_id },
    { name: 'line', type: 'INTEGER', notNull: true, comment: 'line number in the list (header = 1)' },
    { name: 'value', type: 'VARCHAR', privacy: 'withheld', comment: 'the rejected key as written' },
    { name: 'reason', type: 'VARCHAR', notNull: true, privacy: 'cpf text', comment: 'why it was rejected' },
    { name: 'source', type: 'VARCHAR', comment: 'the documents list file' },
    { name: 'rejected_at', type: 'TIMESTAMPTZ', notNull: true, default: 'current_timestamp', comment: 'when it was rejected' },
  ],
};

export const runsTables: readonly Table[] = [schemaMigrations, runs, runStages, rejectedInputs];
