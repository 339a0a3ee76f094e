import { C } from './common.js';
import type { View } from './types.js';

/** What each synchronous history view starts with: the run that asked, when, and for which search. */
const ANSWERED: View['columns'] = [
  { name: 'run_id', comment: C.run_id },
  { name: 'queried_at', comment: C.queried_at },
  { name: 'search_type', comment: C.search_type },
  { name: 'search_key', comment: C.search_key },
];

const vActiveLawsuitsPerDocument: View = {
  name: 'v_active_lawsuits_per_document',
  comment: 'Per searched document: lawsuits in its latest complete answer (of its plain search, when it has one besides filtered ones) and in its trackings\' runs, and how many are active (status Ativo).',
  columns: [
    { name: 'search_type', comment: C.search_type },
    { name: 'search_key', comment: C.search_key },
    { name: 'last_searched_at', comment: 'when its latest complete answer was completed' },
    { name: 'lawsuits_found', comment: 'lawsuits in that answer or found by a run of its tracking (a run adds lawsuits, never removes one)' },
    { name: 'active_lawsuits', comment: 'of those, status Ativo' },
    { name: 'active_amount', comment: 'total amount of the active ones (BRL)' },
  ],
};

const vAmountPerPartyTribunal: View = {
  name: 'v_amount_per_party_tribunal',
  comment: 'Per party (by document, else name) and tribunal: lawsuits and total amount in dispute.',
  columns: [
    { name: 'document', comment: 'party document, digits only (NULL: known by name only)' },
    { name: 'document_type', comment: 'cpf or cnpj' },
    { name: 'name', comment: 'party name' },
    { name: 'tribunal_acronym', comment: C.tribunal_acronym },
    { name: 'lawsuits', comment: 'lawsuits of the party in that tribunal' },
    { name: 'active_lawsuits', comment: 'of those, status Ativo' },
    { name: 'total_amount', comment: 'sum of their amounts (BRL)' },
  ],
};

const vChangesTonight: View = {
  name: 'v_changes_tonight',
  comment: 'The changes found by the latest run with change detection.',
  columns: [
    { name: 'run_id', comment: C.run_id },
    { name: 'detected_at', comment: 'when the change was detected' },
    { name: 'code', comment: C.code },
    { name: 'instance', comment: C.instance },
    { name: 'tribunal_acronym', comment: C.tribunal_acronym },
    { name: 'change', comment: 'kind of change (see lawsuit_changes.change)' },
    { name: 'detail', comment: 'party key or search, see lawsuit_changes.detail' },
    { name: 'old_value', comment: 'value before' },
    { name: 'new_value', comment: 'value after' },
    { name: 'search_type', comment: 'search concerned (new_lawsuit, gone_from_search)' },
    { name: 'search_key', comment: 'searched key (new_lawsuit, gone_from_search)' },
  ],
};

const vLatestStep: View = {
  name: 'v_latest_step',
  comment: 'One row per lawsuit with steps: its latest step.',
  columns: [
    { name: 'code', comment: C.code },
    { name: 'instance', comment: C.instance },
    { name: 'tribunal_acronym', comment: C.tribunal_acronym },
    { name: 'status', comment: 'status of the lawsuit' },
    { name: 'phase', comment: 'phase of the lawsuit' },
    { name: 'latest_step_id', comment: 'step id of the latest step' },
    { name: 'latest_step_date', comment: 'date of the latest step' },
    { name: 'latest_step_content', comment: 'text of the latest step' },
    { name: 'steps_count', comment: 'steps held for the lawsuit' },
  ],
};

const vLawsuitsPerPhase: View = {
  name: 'v_lawsuits_per_phase',
  comment: 'Lawsuits and total amount per phase and status.',
  columns: [
    { name: 'phase', comment: 'procedural phase ((unknown) when never given)' },
    { name: 'status', comment: 'status ((unknown) when never given)' },
    { name: 'lawsuits', comment: 'lawsuits' },
    { name: 'total_amount', comment: 'sum of their amounts (BRL)' },
  ],
};

const vLawsuitRaw: View = {
  name: 'v_lawsuit_raw',
  comment: 'Each lawsuit\'s raw whole, its parts put back together where it was too long for a column.',
  columns: [
    { name: 'code', comment: C.code },
    { name: 'instance', comment: C.instance },
    { name: 'raw', comment: `${C.raw}: the whole lawsuit, nothing dropped` },
  ],
};

const vResponsesRaw: View = {
  name: 'v_responses_raw',
  comment: 'responses_raw with every item whole, its parts put back together where it was too long for a column.',
  columns: [
    { name: 'response_id', comment: 'the provider\'s response item id' },
    { name: 'request_id', comment: C.request_id },
    { name: 'response_type', comment: 'lawsuit or application_error' },
    { name: 'created_at', comment: 'when the provider created the item' },
    { name: 'item', comment: 'the whole item exactly as received (JSON)' },
    { name: 'run_id', comment: C.run_id },
    { name: 'loaded_at', comment: 'when it was loaded' },
  ],
};

const vStatusHistory: View = {
  name: 'v_status_history',
  comment: 'Status and phase history with the interval each held (valid_to NULL: still current).',
  columns: [
    { name: 'code', comment: C.code },
    { name: 'instance', comment: C.instance },
    { name: 'tribunal_acronym', comment: C.tribunal_acronym },
    { name: 'name', comment: 'title of the lawsuit' },
    { name: 'valid_from', comment: 'when the status/phase was first seen' },
    { name: 'valid_to', comment: 'when the next change was seen (NULL: current)' },
    { name: 'status', comment: 'status' },
    { name: 'phase', comment: 'phase' },
    { name: 'previous_status', comment: 'status before' },
    { name: 'previous_phase', comment: 'phase before' },
    { name: 'run_id', comment: 'the run that saw the change' },
  ],
};

const vSyncCountDaily: View = {
  name: 'v_sync_count_daily',
  comment: 'Each document\'s count per night (UTC day: the last answer of the day) and its change from the night before.',
  columns: [
    { name: 'search_type', comment: C.search_type },
    { name: 'search_key', comment: C.search_key },
    { name: 'night', comment: 'the UTC day' },
    { name: 'total', comment: 'lawsuits counted that night' },
    { name: 'previous_total', comment: 'count the night before' },
    { name: 'change', comment: 'total - previous_total' },
  ],
};

const vSyncCountHistory: View = {
  name: 'v_sync_count_history',
  comment: 'Each count query with the previous one for the same document and the difference.',
  columns: [
    ...ANSWERED,
    { name: 'total', comment: 'lawsuits counted' },
    { name: 'previous_total', comment: 'count of the previous query' },
    { name: 'change', comment: 'total - previous_total' },
  ],
};

const vSyncExistsHistory: View = {
  name: 'v_sync_exists_history',
  comment: 'Each true/false query with the previous answer for the same document.',
  columns: [
    ...ANSWERED,
    { name: 'has_lawsuits', comment: 'true when the document has lawsuits' },
    { name: 'request_id', comment: 'request created for the answer, if any' },
    { name: 'previous_has_lawsuits', comment: 'the previous answer' },
    { name: 'changed', comment: 'true when the answer differs from the previous one' },
  ],
};

const vSyncGroupedHistory: View = {
  name: 'v_sync_grouped_history',
  comment: 'Each grouped count with the previous one for the same document, dimension and value.',
  columns: [
    ...ANSWERED,
    { name: 'dimension', comment: 'grouping dimension' },
    { name: 'value', comment: 'value of the dimension' },
    { name: 'count', comment: 'lawsuits with that value' },
    { name: 'previous_count', comment: 'count of the previous query' },
    { name: 'change', comment: 'count - previous_count' },
  ],
};

const vSyncHistoricalHistory: View = {
  name: 'v_sync_historical_history',
  comment: 'Each historical query with the previous one for the same document.',
  columns: [
    ...ANSWERED,
    { name: 'lawsuits', comment: 'lawsuits returned' },
    { name: 'previous_lawsuits', comment: 'lawsuits of the previous query' },
    { name: 'change', comment: 'lawsuits - previous_lawsuits' },
  ],
};

const vTrackingStatus: View = {
  name: 'v_tracking_status',
  comment: 'Each document\'s latest tracking check and its tracking\'s status: is this document tracked?',
  columns: [
    { name: 'search_type', comment: C.search_type },
    { name: 'search_key', comment: C.search_key },
    { name: 'document_line', comment: C.document_line },
    { name: 'run_id', comment: C.run_id },
    { name: 'checked_at', comment: 'when it was checked' },
    { name: 'outcome', comment: 'outcome of the check' },
    { name: 'error', comment: 'why it failed, if it did' },
    { name: 'tracking_id', comment: 'the tracking record' },
    { name: 'status', comment: 'tracking status' },
    { name: 'recurrence', comment: 'recurrence in days' },
    { name: 'created_at', comment: 'when the tracking was created' },
    { name: 'status_since', comment: 'last status change at the provider' },
    { name: 'tracked', comment: 'true when the document has a tracking record' },
  ],
};

const vLawsuitLevels: View = {
  name: 'v_lawsuit_levels',
  comment: 'What level each lawsuit is known at (docs/two-levels.md): whole (its steps, phase and status from a lawsuit-level answer that agrees with its newest header), header (only a search by document\'s header), stale (a newer header moved past what is held) or unavailable (its lawsuit-level read was refused or found nothing); since when and why.',
  columns: [
    { name: 'code', comment: C.code },
    { name: 'instance', comment: C.instance },
    { name: 'level', comment: 'whole, header, stale or unavailable' },
    { name: 'since', comment: 'whole: the crawl of its whole payload; header: the run that first found it; stale: the crawl of the header that moved; unavailable: the first read that found nothing' },
    { name: 'reason', comment: 'why it is not whole (NULL when it is)' },
    { name: 'status', comment: 'Ativo or Finalizado, as held' },
    { name: 'phase', comment: 'procedural phase, as held' },
    { name: 'last_step_id', comment: 'latest step, as the newest payload says' },
    { name: 'steps_count', comment: 'steps, as the newest payload counts them' },
    { name: 'whole_step_id', comment: 'latest step of the newest whole payload' },
    { name: 'whole_steps_count', comment: 'steps of the newest whole payload' },
    { name: 'whole_at', comment: 'crawl of the newest whole payload' },
    { name: 'last_found_at', comment: 'when a lawsuit-level read last found it' },
    { name: 'failures', comment: 'lawsuit-level reads in a row since then that found nothing (refusals included)' },
    { name: 'last_failed_at', comment: 'the last of those' },
    { name: 'next_read_at', comment: 'an unavailable lawsuit: when its next read is due (a backoff of 1, 2, 4, ... days, at most 30)' },
    { name: 'read_for_header', comment: 'the last read that found it was bought for the header it has now (read again only once the header moves)' },
  ],
};

export const VIEWS: readonly View[] = [vActiveLawsuitsPerDocument, vAmountPerPartyTribunal, vChangesTonight, vLatestStep, vLawsuitLevels, vLawsuitsPerPhase, vLawsuitRaw, vResponsesRaw, vStatusHistory, vSyncCountDaily, vSyncCountHistory, vSyncExistsHistory, vSyncGroupedHistory, vSyncHistoricalHistory, vTrackingStatus];
