
// COMMENT ON for every table, view and column of the warehouse, so that an analyst's `DESCRIBE`, DBeaver or
// `SELECT * FROM duckdb_columns()` explains the data without the source at hand. Applied to what exists
// (the transfer_* and sync tables appear only once their step ran) and only where the text differs, so
// calling it before every publish costs next to nothing. A column missing here is reported by applyComments
// and fails test/analytics/comments-cover-every-column.test.ts: a new column needs its sentence.

interface Described { comment: string; columns: Record<string, string> }

/** Column meanings shared by many tables. */
const C = {
  code: 'CNJ number of the lawsuit in the punctuated form NNNNNNN-DD.AAAA.J.TR.OOOO (other identifiers kept as given)',
  instance: 'court instance (1 = first instance, 2 = appeal, ...); with code, the key of a lawsuit',
  run_id: 'the run that wrote the row (runs.run_id)',
  request_id: 'the provider\'s asynchronous request (requests.request_id)',
  search_type: 'kind of search: cpf, cnpj, oab, name, lawsuit_cnj or lawsuit_id',
  search_key: 'the searched key, normalised (documents digits only; CNPJ letters upper case)',
  document_line: 'line of the documents list the search came from',
  queried_at: 'when the provider answered the synchronous query',
  party_index: 'position of the party in the lawsuit\'s parties list (0-based)',
  tribunal_acronym: 'court acronym, e.g. TJSP, TRT2, STJ',
  transfer_file_id: 'the provider\'s transfer file (transfer_files.transfer_file_id)',
  transfer_loaded_at: 'when the row was loaded from its transfer file',
  raw: 'the object exactly as the provider sent it (JSON)',
} as const;

const lawsuitKey = { code: C.code, instance: C.instance };

export const COMMENTS: Record<string, Described> = {
  schema_migrations: {
    comment: 'Schema versions applied to this file (one row per migration).',
    columns: { version: 'migration number', name: 'what the migration does', applied_at: 'when it was applied' },
  },
  runs: {
    comment: 'One row per run of the tool (nightly run, transfer, query, track): when, how it ended and what it did.',
    columns: {
      run_id: 'run identifier: start time (UTC, compact ISO) and a random suffix; sorts by start',
      started_at: 'when the run started', finished_at: 'when the run finished (NULL: still running or crashed)',
      status: 'ok, partial (some documents, files or stages failed or were refused), refused (the key was refused), interrupted, failed or running (still running, or killed: the next run closes it)',
      command: 'the command that started the run (run, transfer, query, track)', calls: 'API calls made',
      calls_by_status: 'API calls per HTTP status (JSON object)', documents: 'valid documents in the list',
      rejected: 'lines of the list rejected', requests_submitted: 'asynchronous requests submitted (paid)',
      requests_completed: 'requests completed and collected', lawsuits: 'lawsuits seen by this run',
      parties: 'parties in the warehouse after the run', steps: 'steps in the warehouse after the run',
      errors: 'failures listed in the summary', summary: 'the whole run summary as printed (JSON)',
    },
  },
  run_stages: {
    comment: 'One row per stage of every run (documents, search, transfer, changes, query, track, exports, publish): how each ended and what it did.',
    columns: {
      run_id: 'the run (runs.run_id)', stage: 'the stage: documents, search, transfer, changes, query, track, exports or publish',
      position: 'order of the stage in its run (0-based)',
      status: 'ok (done; some items may have failed, see failures), failed, refused (the provider refused the resource or the key), skipped (not run: see error_message) or interrupted (stopped by SIGTERM, or killed while it ran)',
      started_at: 'when the stage started', finished_at: 'when it ended (NULL: the run was killed while it ran)',
      counts: 'the stage\'s figures (JSON object of counts)', failures: 'documents, files or requests that failed inside the stage',
      error_code: 'constant code of what ended or skipped the stage', error_message: 'what happened and what to do',
    },
  },
  requests: {
    comment: 'Asynchronous requests (POST /requests) and how far their responses were loaded: the resumable ledger.',
    columns: {
      request_id: 'the provider\'s request id', search_type: C.search_type, search_key: C.search_key,
      on_demand: 'true: live crawl of the courts (costlier); false: the provider\'s database',
      lawsuit_instance: 'instance filter of the search (NULL: all)', status: 'provider status: pending, completed, cancelled, ...',
      created_at: 'when the provider created the request', completed_at: 'when the provider completed it',
      run_id: 'the run that submitted it', document_line: C.document_line, search: 'the search object as sent (JSON)',
      submitted_at: 'when this tool submitted it', pages_loaded: 'response pages loaded by page number (before schema version 50; no longer written)',
      items_loaded: 'responses of this request loaded so far by its strategy; per request, also the item offset its reading resumes at',
      all_pages_count: 'pages the provider announced (before schema version 50; no longer written)',
      last_polled_at: 'last time its status was polled', error: 'why the request failed, if it did',
      loaded_at: 'when the request was known complete and every one of its responses loaded (NULL: not yet): the one definition of fully loaded',
      strategy: 'how its responses are read: sweep (one listing across requests, by creation time) or per_request (GET /responses?request_id=)',
      sweep_id: 'the sweep that reads or read its responses (response_sweeps.sweep_id)',
      items_total: 'responses the request has, once known (the listing\'s all_count, or what the sweep found)',
    },
  },
  response_sweeps: {
    comment: 'Sweeps of GET /responses across requests by creation time: each one\'s cursor, written with the responses it covers (resume), and what it read.',
    columns: {
      sweep_id: 'sweep identifier (the run that started it)', run_id: 'the run that started it', started_at: 'when it started',
      updated_at: 'when its cursor last moved', status: 'active, done, fallback (the provider did not honour the filters), switched (costlier than per-request reading) or handed_over (too old to resume: its requests read per request)',
      reason: 'why it ended other than done', cursor_from: 'the anchor: the sweep asks for responses created at or after it (inclusive)',
      cursor_page: 'next page at the anchor', cursor_page_size: 'page size of the pages read at the anchor (page numbers hold at one size)',
      cursor_seen: 'response ids of the last two pages read and of the last millisecond read, read again after a shift or a move of the anchor and skipped (JSON list)',
      cursor_last: 'created_at of the last response read: every response created before it was read', high_at: 'newest created_at read: a request created later may join the sweep',
      pages: 'listing pages read', items_read: 'responses listed', items_ours: 'responses of its requests, loaded', items_skipped: 'responses of other requests (another client on the key, or read per request), skipped and never loaded',
    },
  },
  request_pages: {
    comment: 'Response pages loaded per request by page number, before schema version 50 (per-request reading now keeps an item offset, requests.items_loaded).',
    columns: { request_id: C.request_id, page: 'page number (1-based)', items: 'items on the page', loaded_at: 'when it was loaded' },
  },
  responses_raw: {
    comment: 'Every response item exactly as received, application errors included.',
    columns: {
      response_id: 'the provider\'s response item id', request_id: C.request_id,
      response_type: 'lawsuit or application_error', created_at: 'when the provider created the item',
      item: 'the whole item (JSON); NULL when too long for a column: see raw_parts and v_responses_raw', run_id: C.run_id, loaded_at: 'when it was loaded',
    },
  },
  load_problems: {
    comment: 'Values of a response item its typed columns could not hold (too large a number, an unreadable date, no usable key, too large an item): '
      + 'the item is whole in responses_raw; each row says what did not fit and what was done.',
    columns: {
      response_id: 'the response item (responses_raw.response_id)', code: `${C.code} (NULL when the payload had none usable)`,
      instance: `${C.instance} (NULL when it did not fit)`, field: 'the field in the lawsuit object, e.g. instance, amount, steps[<step_id>].step_date, or (item)',
      value: 'the value as received (its JSON text, digit for digit), shortened past 300 characters',
      problem: 'missing_key, out_of_range, not_a_number, not_a_date, wrong_type, not_an_object or too_large',
      detail: 'what was wrong and what the warehouse did about it', run_id: 'the run that found it', detected_at: 'when it was found',
    },
  },
  raw_parts: {
    comment: 'Texts too long for a column (over 48 KB), in parts: a response item (responses_raw.item is then NULL) or a lawsuit\'s raw (lawsuits.raw NULL). '
      + 'v_responses_raw and v_lawsuit_raw give them whole.',
    columns: {
      owner: 'whose text: responses_raw.item or lawsuits.raw', response_id: 'the response item (owner responses_raw.item)',
      code: `${C.code} (owner lawsuits.raw)`, instance: `${C.instance} (owner lawsuits.raw)`,
      part: 'position of the part (0-based): the text is the parts joined in this order', text: 'the part (at most 16,384 characters)',
    },
  },
  v_responses_raw: {
    comment: 'responses_raw with every item whole, its parts put back together where it was too long for a column.',
    columns: {
      response_id: 'the provider\'s response item id', request_id: C.request_id, response_type: 'lawsuit or application_error',
      created_at: 'when the provider created the item', item: 'the whole item exactly as received (JSON)', run_id: C.run_id, loaded_at: 'when it was loaded',
    },
  },
  v_lawsuit_raw: {
    comment: 'Each lawsuit\'s raw whole, its parts put back together where it was too long for a column.',
    columns: { ...lawsuitKey, raw: `${C.raw}: the whole lawsuit, nothing dropped` },
  },
  search_hits: {
    comment: 'Which request (search) found which lawsuit.',
    columns: { request_id: C.request_id, ...lawsuitKey, response_id: 'the response item that carried it', first_seen_at: 'when this request first returned it' },
  },
  lawsuits: {
    comment: 'One row per lawsuit instance, merged from every payload seen (the newest crawl wins; fields a payload leaves out are kept).',
    columns: {
      ...lawsuitKey, lawsuit_id: 'the provider\'s id of this lawsuit instance', tribunal_acronym: C.tribunal_acronym,
      justice: 'branch of justice code (J of the CNJ number)', justice_description: 'branch of justice in words',
      tribunal: 'tribunal code (TR of the CNJ number)', area: 'area of law (e.g. Cível, Trabalhista)', state: 'state (UF)',
      city: 'city of the court', county: 'judicial district (comarca)', distribution_date: 'when the lawsuit was filed',
      amount: 'amount in dispute (BRL)', status: 'Ativo or Finalizado', phase: 'procedural phase, e.g. Inicial, Sentença, Recurso, Execução, Arquivado',
      secrecy_level: 'secrecy level (0 = public)', free_justice: 'true when free legal aid was granted',
      name: 'title of the lawsuit (usually "plaintiff x defendant")', created_at: 'when the provider first recorded it',
      updated_at: 'when the provider last updated it', crawl_id: 'the provider\'s crawl that produced the payload',
      crawler_source: 'where the crawl read it (court system)', crawled_at: 'when the crawl read the court',
      last_step_date: 'date of the latest step', steps_count: 'steps the provider counted', response_id: 'the response item the winning payload came from',
      response_created_at: 'creation time of that response item', cached_response: 'true when the winning payload came from the provider\'s cache',
      source: 'how it arrived: async (requests) or historical (synchronous query)', first_seen_run: 'run that first loaded it',
      last_seen_run: 'run that last loaded it', loaded_at: 'when it was last merged',
      raw: `${C.raw}: the whole lawsuit, nothing dropped; NULL when too long for a column: see raw_parts and v_lawsuit_raw`,
    },
  },
  parties: {
    comment: 'Parties of each lawsuit (plaintiffs, defendants, ...), as in its newest payload with a parties list.',
    columns: {
      ...lawsuitKey, party_index: C.party_index, name: 'party name', side: 'Active, Passive, Interested, ...',
      person_type: 'person type as the provider gives it (e.g. Autor, Réu)', document: 'main document, digits only (CNPJ letters upper case)',
      document_type: 'cpf or cnpj (or other kinds the provider names)', main_document: 'main document as the provider flagged it',
      documents: 'every document of the party (JSON list)', raw: C.raw,
    },
  },
  lawyers: {
    comment: 'Lawyers of each party.',
    columns: {
      ...lawsuitKey, party_index: C.party_index, lawyer_index: 'position of the lawyer in the party\'s list (0-based)', name: 'lawyer name',
      side: 'side of the party represented', oab: 'OAB registration, normalised <number><UF>[letter]', person_type: 'person type as given',
      documents: 'documents of the lawyer (JSON list)',
    },
  },
  steps: {
    comment: 'Steps (movements) of each lawsuit: the union over every payload seen, never deleted.',
    columns: {
      ...lawsuitKey, step_id: 'the provider\'s step id, or h_<hash of date and content> when it had none',
      step_id_derived: 'true when step_id was derived from the hash', step_date: 'when the step happened',
      content: 'text of the step', private: 'true for a step under secrecy', step_type: 'kind of step as given', raw: C.raw,
    },
  },
  subjects: {
    comment: 'Subjects (assuntos) of each lawsuit.',
    columns: { ...lawsuitKey, item_code: 'subject code (CNJ tables)', item_name: 'subject name' },
  },
  classifications: {
    comment: 'Classes (classes processuais) of each lawsuit.',
    columns: { ...lawsuitKey, item_code: 'class code (CNJ tables)', item_name: 'class name' },
  },
  courts: {
    comment: 'Courts (varas) a lawsuit passed through.',
    columns: { ...lawsuitKey, court_index: 'position in the courts list (0-based)', court_code: 'court code', court_name: 'court name' },
  },
  attachments: {
    comment: 'Attachments (documents filed) of each lawsuit.',
    columns: {
      ...lawsuitKey, attachment_index: 'position in the attachments list (0-based)', attachment_date: 'when it was filed',
      attachment_name: 'name of the attachment', raw: C.raw,
    },
  },
  rejected_inputs: {
    comment: 'Lines of the documents list that could not be used, with the reason.',
    columns: {
      run_id: C.run_id, line: 'line number in the list (header = 1)', value: 'the rejected key as written',
      reason: 'why it was rejected', source: 'the documents list file', rejected_at: 'when it was rejected',
    },
  },
  transfer_files: {
    comment: 'Transfer files offered by the provider and what became of them here.',
    columns: {
      transfer_file_id: 'the provider\'s transfer file id', name: 'file name', description: 'the provider\'s description',
      file_type: 'csv, json or parquet', status: 'local status: loaded (provider not yet told), downloaded (done) or error',
      file_size: 'size in bytes', lawsuits_count: 'distinct lawsuits in the file', created_at: 'when the provider created it',
      completed_at: 'when the provider finished preparing it', downloaded_at: 'when it was marked downloaded at the provider',
      loaded_rows: 'rows loaded from it', loaded_at: 'when it was loaded', error: 'why it failed', run_id: C.run_id,
      remote_status: 'status at the provider', target_table: 'the transfer_* table its rows went to',
      attempts: 'download attempts it took', updated_at: 'last change of this row',
    },
  },
  submissions: {
    comment: 'Submission intents: written before POST /requests so that a crash in between cannot pay for a request twice.',
    columns: {
      search_hash: 'hash of the search object', started_at: 'when the submission started', run_id: C.run_id,
      search: 'the search object (JSON)', document_line: C.document_line, request_id: 'the request it became (NULL: unknown yet)',
    },
  },
  transfer_lawsuits: {
    comment: 'Lawsuit rows from transfer files (flat schema), one row per file row.',
    columns: {
      ...lawsuitKey, tribunal_acronym: C.tribunal_acronym, justice: 'branch of justice code', tribunal: 'tribunal code',
      distribution_date: 'when the lawsuit was filed', amount: 'amount in dispute (BRL)', status: 'Ativo or Finalizado',
      phase: 'procedural phase', secrecy_level: 'secrecy level (0 = public)', name: 'title of the lawsuit', area: 'area of law',
      state: 'state (UF)', city: 'city of the court', updated_at: 'when the provider last updated it',
      transfer_file_id: C.transfer_file_id, loaded_at: C.transfer_loaded_at,
    },
  },
  transfer_parties: {
    comment: 'Party rows from transfer files (flat schema).',
    columns: {
      ...lawsuitKey, party_index: C.party_index, name: 'party name', side: 'side in the lawsuit', person_type: 'person type as given',
      document: 'document, digits only', document_type: 'cpf or cnpj', transfer_file_id: C.transfer_file_id, loaded_at: C.transfer_loaded_at,
    },
  },
  transfer_steps: {
    comment: 'Step rows from transfer files (flat schema).',
    columns: {
      ...lawsuitKey, step_id: 'the provider\'s step id', step_date: 'when the step happened', content: 'text of the step',
      private: 'true for a step under secrecy', transfer_file_id: C.transfer_file_id, loaded_at: C.transfer_loaded_at,
    },
  },
  sync_counts: {
    comment: 'Synchronous count queries: how many lawsuits each document had, per run.',
    columns: { run_id: C.run_id, queried_at: C.queried_at, search_type: C.search_type, search_key: C.search_key, document_line: C.document_line, total: 'lawsuits counted' },
  },
  sync_exists: {
    comment: 'Synchronous true/false queries: whether each document had lawsuits, per run.',
    columns: {
      run_id: C.run_id, queried_at: C.queried_at, search_type: C.search_type, search_key: C.search_key, document_line: C.document_line,
      has_lawsuits: 'true when the document has at least one lawsuit', request_id: 'request the provider created for the answer, if any',
    },
  },
  sync_grouped: {
    comment: 'Synchronous grouped counts (long form): per run, document, dimension and value.',
    columns: {
      run_id: C.run_id, queried_at: C.queried_at, search_type: C.search_type, search_key: C.search_key, document_line: C.document_line,
      dimension: 'grouping dimension (lawsuits_count is the total)', value: 'value of the dimension (instances as text; empty for the total)',
      count: 'lawsuits with that value',
    },
  },
  sync_historical: {
    comment: 'Synchronous historical queries: one row per document per run (the lawsuits go to the core tables).',
    columns: {
      run_id: C.run_id, queried_at: C.queried_at, search_type: C.search_type, search_key: C.search_key, document_line: C.document_line,
      has_lawsuits: 'true when lawsuits were returned', request_id: 'request the provider created for the answer, if any',
      lawsuits: 'lawsuits returned',
    },
  },
  trackings: {
    comment: 'Tracking records at the provider (recurring searches), as last listed.',
    columns: {
      tracking_id: 'the provider\'s tracking id', search_type: C.search_type, search_key: C.search_key, recurrence: 'recurrence in days',
      status: 'created, active, updating, updated or paused', search: 'the tracked search (JSON)', created_at: 'when it was created',
      updated_at: 'last status change at the provider', last_seen_run: 'run that last listed it', checked_at: 'when it was last checked',
    },
  },
  tracking_checks: {
    comment: 'What each track run found for each listed document.',
    columns: {
      run_id: C.run_id, checked_at: 'when it was checked', search_type: C.search_type, search_key: C.search_key, document_line: C.document_line,
      tracking_id: 'the tracking record (NULL: none)', outcome: 'created, existing, conflict, failed, ...', error: 'why it failed, if it did',
    },
  },
  v_sync_count_history: {
    comment: 'Each count query with the previous one for the same document and the difference.',
    columns: {
      run_id: C.run_id, queried_at: C.queried_at, search_type: C.search_type, search_key: C.search_key, total: 'lawsuits counted',
      previous_total: 'count of the previous query', change: 'total - previous_total',
    },
  },
  v_sync_exists_history: {
    comment: 'Each true/false query with the previous answer for the same document.',
    columns: {
      run_id: C.run_id, queried_at: C.queried_at, search_type: C.search_type, search_key: C.search_key,
      has_lawsuits: 'true when the document has lawsuits', request_id: 'request created for the answer, if any',
      previous_has_lawsuits: 'the previous answer', changed: 'true when the answer differs from the previous one',
    },
  },
  v_sync_grouped_history: {
    comment: 'Each grouped count with the previous one for the same document, dimension and value.',
    columns: {
      run_id: C.run_id, queried_at: C.queried_at, search_type: C.search_type, search_key: C.search_key, dimension: 'grouping dimension',
      value: 'value of the dimension', count: 'lawsuits with that value', previous_count: 'count of the previous query', change: 'count - previous_count',
    },
  },
  v_sync_historical_history: {
    comment: 'Each historical query with the previous one for the same document.',
    columns: {
      run_id: C.run_id, queried_at: C.queried_at, search_type: C.search_type, search_key: C.search_key, lawsuits: 'lawsuits returned',
      previous_lawsuits: 'lawsuits of the previous query', change: 'lawsuits - previous_lawsuits',
    },
  },
  v_sync_count_daily: {
    comment: 'Each document\'s count per night (UTC day: the last answer of the day) and its change from the night before.',
    columns: {
      search_type: C.search_type, search_key: C.search_key, night: 'the UTC day', total: 'lawsuits counted that night',
      previous_total: 'count the night before', change: 'total - previous_total',
    },
  },
  v_tracking_status: {
    comment: 'Each document\'s latest tracking check and its tracking\'s status: is this document tracked?',
    columns: {
      search_type: C.search_type, search_key: C.search_key, document_line: C.document_line, run_id: C.run_id, checked_at: 'when it was checked',
      outcome: 'outcome of the check', error: 'why it failed, if it did', tracking_id: 'the tracking record', status: 'tracking status',
      recurrence: 'recurrence in days', created_at: 'when the tracking was created', status_since: 'last status change at the provider',
      tracked: 'true when the document has a tracking record',
    },
  },
  lawsuit_changes: {
    comment: 'What changed for each lawsuit in each run (new lawsuit, new steps, status, phase, amount, secrecy, new party, gone from a search).',
    columns: {
      run_id: 'the run whose change detection found it', ...lawsuitKey,
      change: 'new_lawsuit, new_steps, status, phase, amount, secrecy_level, new_party or gone_from_search',
      detail: 'which one when a lawsuit can change several times in one kind: the party key (new_party), search_type:search_key (gone_from_search); else empty',
      old_value: 'value before (steps count for new_steps, the search key for gone_from_search; NULL for new ones)',
      new_value: 'value after (steps count for new_steps, party name for new_party, lawsuit title for new_lawsuit)',
      search_type: 'for new_lawsuit and gone_from_search: the search concerned', search_key: 'for new_lawsuit and gone_from_search: the searched key',
      detected_at: 'when the change was detected (end of the run)',
    },
  },
  lawsuit_state: {
    comment: 'The state of each lawsuit as the last change detection saw it: what the next run compares with.',
    columns: {
      ...lawsuitKey, status: 'status seen', phase: 'phase seen', amount: 'amount seen (BRL)', secrecy_level: 'secrecy level seen',
      steps_count: 'steps held in the warehouse', snapshot_run: 'the run whose detection last changed this row', snapshot_at: 'when that detection ran',
    },
  },
  lawsuit_state_parties: {
    comment: 'The parties of each lawsuit as the last change detection saw them (to find new parties).',
    columns: { ...lawsuitKey, party_key: 'the party\'s document, or name: plus its name without accents in upper case' },
  },
  search_state: {
    comment: 'Per search, the answer (request) the last change detection compared (to find lawsuits gone from a search).',
    columns: {
      search_type: C.search_type, search_key: C.search_key, on_demand: 'the search\'s on_demand flag', lawsuit_instance: 'instance filter (-1: all)',
      request_id: 'the fully loaded request compared last', snapshot_run: 'the run whose detection compared it',
    },
  },
  lawsuit_status_history: {
    comment: 'Status and phase of each lawsuit over time: one row per change seen (the first row when it was first seen).',
    columns: {
      ...lawsuitKey, run_id: 'the run that saw the change', valid_from: 'when the change was seen (end of that run)',
      status: 'status from then on', phase: 'phase from then on', previous_status: 'status before (NULL at first sight)',
      previous_phase: 'phase before (NULL at first sight)', provider_updated_at: 'the provider\'s updated_at of the lawsuit at that moment',
    },
  },
  change_detections: {
    comment: 'One row per run whose changes were detected (a second detection of the same run inserts nothing).',
    columns: {
      run_id: C.run_id, detected_at: 'when the detection ran', lawsuits_compared: 'lawsuits compared',
      changes: 'rows written to lawsuit_changes', counts: 'rows per kind of change (JSON object)',
    },
  },
  v_active_lawsuits_per_document: {
    comment: 'Per searched document: lawsuits in its latest complete answer, and how many are active (status Ativo).',
    columns: {
      search_type: C.search_type, search_key: C.search_key, last_searched_at: 'when its latest complete answer was completed',
      lawsuits_found: 'lawsuits in that answer', active_lawsuits: 'of those, status Ativo', active_amount: 'total amount of the active ones (BRL)',
    },
  },
  v_amount_per_party_tribunal: {
    comment: 'Per party (by document, else name) and tribunal: lawsuits and total amount in dispute.',
    columns: {
      document: 'party document, digits only (NULL: known by name only)', document_type: 'cpf or cnpj', name: 'party name',
      tribunal_acronym: C.tribunal_acronym, lawsuits: 'lawsuits of the party in that tribunal', active_lawsuits: 'of those, status Ativo',
      total_amount: 'sum of their amounts (BRL)',
    },
  },
  v_latest_step: {
    comment: 'One row per lawsuit with steps: its latest step.',
    columns: {
      ...lawsuitKey, tribunal_acronym: C.tribunal_acronym, status: 'status of the lawsuit', phase: 'phase of the lawsuit',
      latest_step_id: 'step id of the latest step', latest_step_date: 'date of the latest step', latest_step_content: 'text of the latest step',
      steps_count: 'steps held for the lawsuit',
    },
  },
  v_lawsuits_per_phase: {
    comment: 'Lawsuits and total amount per phase and status.',
    columns: { phase: 'procedural phase ((unknown) when never given)', status: 'status ((unknown) when never given)', lawsuits: 'lawsuits', total_amount: 'sum of their amounts (BRL)' },
  },
  v_status_history: {
    comment: 'Status and phase history with the interval each held (valid_to NULL: still current).',
    columns: {
      ...lawsuitKey, tribunal_acronym: C.tribunal_acronym, name: 'title of the lawsuit', valid_from: 'when the status/phase was first seen',
      valid_to: 'when the next change was seen (NULL: current)', status: 'status', phase: 'phase', previous_status: 'status before',
      previous_phase: 'phase before', run_id: 'the run that saw the change',
    },
  },
  v_changes_tonight: {
    comment: 'The changes found by the latest run with change detection.',
    columns: {
      run_id: C.run_id, detected_at: 'when the change was detected', ...lawsuitKey, tribunal_acronym: C.tribunal_acronym,
      change: 'kind of change (see lawsuit_changes.change)', detail: 'party key or search, see lawsuit_changes.detail',
      old_value: 'value before', new_value: 'value after', search_type: 'search concerned (new_lawsuit, gone_from_search)',
      search_key: 'searched key (new_lawsuit, gone_from_search)',
    },
  },
};

/** A column a transfer file brought beyond the known ones (transfer-load.ts adds it with the reader's type). */
const TRANSFER_EXTRA = 'column a transfer file added beyond the known flat schema (name and type as the file gave them)';

const TRANSFER_DATA_TABLES = new Set(['transfer_lawsuits', 'transfer_parties', 'transfer_steps']);

const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;

export interface CommentResult {
  /** COMMENT statements run (0 when every comment was already in place). */
  applied: number;
  /** `table.column` (or `table`) of the main schema still without a comment: missing from COMMENTS. */
  missing: string[];
}

/** What applyComments needs of the warehouse: `Warehouse` (warehouse.ts) has it. */
export interface CommentDb {
  run(sql: string): Promise<number>;
  all<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Comments every table, view and column that exists and that COMMENTS describes; reports the rest. A COMMENT is
 * a catalog change: the caller checkpoints right after when `applied` > 0 (wal-recovery.ts says why).
 */
export async function applyComments(wh: CommentDb): Promise<CommentResult> {
  const objects = await wh.all<{ name: string; kind: 'TABLE' | 'VIEW'; comment: string | null }>(`
    SELECT table_name AS name, 'TABLE' AS kind, comment FROM duckdb_tables()
      WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
    UNION ALL
    SELECT view_name, 'VIEW', comment FROM duckdb_views()
      WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary`);
  const columns = await wh.all<{ table_name: string; column_name: string; comment: string | null }>(`
    SELECT table_name, column_name, comment FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal ORDER BY table_name, column_index`);
  const statements: string[] = [];
  const missing: string[] = [];
  const kinds = new Map(objects.map((o) => [o.name, o.kind]));
  for (const o of objects) {
    const want = COMMENTS[o.name]?.comment;
    if (!want) missing.push(o.name);
    else if (want !== o.comment) statements.push(`COMMENT ON ${o.kind} ${ident(o.name)} IS ${lit(want)}`);
  }
  for (const c of columns) {
    if (!kinds.has(c.table_name)) continue;
    const want = COMMENTS[c.table_name]?.columns[c.column_name] ?? (TRANSFER_DATA_TABLES.has(c.table_name) ? TRANSFER_EXTRA : undefined);
    if (!want) missing.push(`${c.table_name}.${c.column_name}`);
    else if (want !== c.comment) statements.push(`COMMENT ON COLUMN ${ident(c.table_name)}.${ident(c.column_name)} IS ${lit(want)}`);
  }
  if (statements.length > 0) await wh.transaction(async () => { await wh.run(statements.join(';\n')); });
  return { applied: statements.length, missing };
}
