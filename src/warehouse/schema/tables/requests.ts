import { C } from '../common.js';
import type { Table } from '../types.js';

const requests: Table = {
  name: 'requests',
  comment: 'Asynchronous requests (POST /requests) and how far their responses were loaded: the resumable ledger.',
  key: ['request_id'],
  export: {},
  columns: [
    { name: 'request_id', type: 'VARCHAR', notNull: true, comment: 'the provider\'s request id' },
    { name: 'search_type', type: 'VARCHAR', comment: C.search_type },
    { name: 'search_key', type: 'VARCHAR', privacy: 'search key', comment: C.search_key },
    { name: 'on_demand', type: 'BOOLEAN', comment: 'true: live crawl of the courts (costlier); false: the provider\'s database' },
    { name: 'lawsuit_instance', type: 'INTEGER', comment: 'instance filter of the search (NULL: all)' },
    { name: 'status', type: 'VARCHAR', comment: 'provider status: pending, completed, cancelled, ...' },
    { name: 'created_at', type: 'TIMESTAMPTZ', comment: 'when the provider created the request' },
    { name: 'completed_at', type: 'TIMESTAMPTZ', comment: 'when the provider completed it' },
    { name: 'run_id', type: 'VARCHAR', comment: 'the run that submitted it' },
    { name: 'document_line', type: 'INTEGER', comment: C.document_line },
    { name: 'search', type: 'JSON', privacy: 'search', comment: 'the search object as sent (JSON)' },
    { name: 'submitted_at', type: 'TIMESTAMPTZ', comment: 'when this tool submitted it' },
    { name: 'pages_loaded', type: 'INTEGER', notNull: true, default: '0', comment: 'response pages loaded by page number (before schema version 50; no longer written)' },
    { name: 'items_loaded', type: 'INTEGER', notNull: true, default: '0', comment: 'responses of this request loaded so far by its strategy; per request, also the item offset its reading resumes at' },
    { name: 'all_pages_count', type: 'INTEGER', comment: 'pages the provider announced (before schema version 50; no longer written)' },
    { name: 'last_polled_at', type: 'TIMESTAMPTZ', comment: 'last time its status was polled' },
    { name: 'error', type: 'VARCHAR', privacy: 'search text', comment: 'why the request failed, if it did' },
    { name: 'loaded_at', type: 'TIMESTAMPTZ', comment: 'when the request was known complete and every one of its responses loaded (NULL: not yet): the one definition of fully loaded' },
    { name: 'strategy', type: 'VARCHAR', comment: 'how its responses are read: sweep (one listing across requests, by creation time) or per_request (GET /responses?request_id=)' },
    { name: 'sweep_id', type: 'VARCHAR', comment: 'the sweep that reads or read its responses (response_sweeps.sweep_id)' },
    { name: 'items_total', type: 'INTEGER', comment: 'responses the request has, once known (the listing\'s all_count, or what the sweep found)' },
    { name: 'basis', type: 'JSON', comment: 'a lawsuit-level read the night chose: how far each instance\'s header said the lawsuit had gone when it was bought (JSON {instance: {step_id, steps_count}}); NULL for a search of the documents list' },
    { name: 'with_attachments', type: 'BOOLEAN', comment: 'true when the request asked for attachments (with_attachments at the top level of its body; lawsuit_cnj searches)' },
  ],
};

const requestPages: Table = {
  name: 'request_pages',
  comment: 'Response pages loaded per request by page number, before schema version 50 (per-request reading now keeps an item offset, requests.items_loaded).',
  key: ['request_id', 'page'],
  columns: [
    { name: 'request_id', type: 'VARCHAR', notNull: true, comment: C.request_id },
    { name: 'page', type: 'INTEGER', notNull: true, comment: 'page number (1-based)' },
    { name: 'items', type: 'INTEGER', notNull: true, comment: 'items on the page' },
    { name: 'loaded_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was loaded' },
  ],
};

const submissions: Table = {
  name: 'submissions',
  comment: 'Submission intents: written before POST /requests so that a crash in between cannot pay for a request twice.',
  key: ['search_hash', 'started_at'],
  columns: [
    { name: 'search_hash', type: 'VARCHAR', notNull: true, comment: 'hash of the search object' },
    { name: 'started_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when the submission started' },
    { name: 'run_id', type: 'VARCHAR', comment: C.run_id },
    { name: 'search', type: 'JSON', comment: 'the search object (JSON)' },
    { name: 'document_line', type: 'INTEGER', comment: C.document_line },
    { name: 'request_id', type: 'VARCHAR', comment: 'the request it became (NULL: unknown yet)' },
    { name: 'basis', type: 'JSON', comment: 'requests.basis of the request it becomes' },
    { name: 'with_attachments', type: 'BOOLEAN', comment: 'true when the submission asks for attachments (the top level of the body, beside the search)' },
  ],
};

const responseSweeps: Table = {
  name: 'response_sweeps',
  comment: 'Sweeps of GET /responses across requests by creation time: each one\'s cursor, written with the responses it covers (resume), and what it read.',
  key: ['sweep_id'],
  columns: [
    { name: 'sweep_id', type: 'VARCHAR', notNull: true, comment: 'sweep identifier (the run that started it)' },
    { name: 'run_id', type: 'VARCHAR', comment: 'the run that started it' },
    { name: 'started_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it started' },
    { name: 'updated_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when its cursor last moved' },
    { name: 'status', type: 'VARCHAR', notNull: true, comment: 'active, done, fallback (the provider did not honour the filters), switched (costlier than per-request reading) or handed_over (too old to resume: its requests read per request)' },
    { name: 'reason', type: 'VARCHAR', comment: 'why it ended other than done' },
    { name: 'cursor_from', type: 'TIMESTAMPTZ', comment: 'the anchor: the sweep asks for responses created at or after it (inclusive)' },
    { name: 'cursor_page', type: 'INTEGER', notNull: true, comment: 'next page at the anchor' },
    { name: 'cursor_page_size', type: 'INTEGER', comment: 'page size of the pages read at the anchor (page numbers hold at one size)' },
    { name: 'cursor_seen', type: 'JSON', comment: 'response ids of the last two pages read and of the last millisecond read, read again after a shift or a move of the anchor and skipped (JSON list)' },
    { name: 'cursor_last', type: 'TIMESTAMPTZ', comment: 'created_at of the last response read: every response created before it was read' },
    { name: 'high_at', type: 'TIMESTAMPTZ', comment: 'newest created_at read: a request created later may join the sweep' },
    { name: 'pages', type: 'INTEGER', notNull: true, comment: 'listing pages read' },
    { name: 'items_read', type: 'INTEGER', notNull: true, comment: 'responses listed' },
    { name: 'items_ours', type: 'INTEGER', notNull: true, comment: 'responses of its requests, loaded' },
    { name: 'items_skipped', type: 'INTEGER', notNull: true, comment: 'responses of other requests (another client on the key, or read per request), skipped and never loaded' },
    { name: 'wave', type: 'VARCHAR', comment: 'the night\'s requests it reads: documents (the list\'s searches; also NULL) or lawsuits (the lawsuit-level reads)' },
  ],
};

const lawsuitReadRefusals: Table = {
  name: 'lawsuit_read_refusals',
  comment: 'Lawsuit-level reads (lawsuit_cnj searches) the provider refused before making a request (403: a secret lawsuit without a credential, a search not in the plan): each lawsuit of the number is unavailable until a later read, retried on a backoff in days (v_lawsuit_levels).',
  key: ['code', 'refused_at'],
  export: {},
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, comment: C.code },
    { name: 'refused_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when the provider refused it' },
    { name: 'run_id', type: 'VARCHAR', comment: C.run_id },
    { name: 'error_code', type: 'VARCHAR', comment: 'the error\'s code (API_FORBIDDEN_ONE, ...)' },
    { name: 'reason', type: 'VARCHAR', comment: 'what the provider said' },
  ],
};

export const requestsTables: readonly Table[] = [requests, requestPages, submissions, responseSweeps, lawsuitReadRefusals];
