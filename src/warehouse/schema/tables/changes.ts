import { C } from '../common.js';
import type { Table } from '../types.js';

const lawsuitChanges: Table = {
  name: 'lawsuit_changes',
  comment: 'What changed for each lawsuit in each run (new lawsuit, new steps, status, phase, amount, secrecy, new party, gone from a search).',
  key: ['run_id', 'code', 'instance', 'change', 'detail'], keptByLoader: true,
  columns: [
    { name: 'run_id', type: 'VARCHAR', notNull: true, comment: 'the run whose change detection found it' },
    { name: 'code', type: 'VARCHAR', notNull: true, comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, comment: C.instance },
    { name: 'change', type: 'VARCHAR', notNull: true, comment: 'new_lawsuit, new_steps, status, phase, amount, secrecy_level, new_party or gone_from_search' },
    { name: 'detail', type: 'VARCHAR', notNull: true, default: "''", comment: 'which one when a lawsuit can change several times in one kind: the party key (new_party), search_type:search_key (gone_from_search); else empty' },
    { name: 'old_value', type: 'VARCHAR', comment: 'value before (steps count for new_steps, the search key for gone_from_search; NULL for new ones)' },
    { name: 'new_value', type: 'VARCHAR', comment: 'value after (steps count for new_steps, party name for new_party, lawsuit title for new_lawsuit)' },
    { name: 'search_type', type: 'VARCHAR', comment: 'for new_lawsuit and gone_from_search: the search concerned' },
    { name: 'search_key', type: 'VARCHAR', comment: 'for new_lawsuit and gone_from_search: the searched key' },
    { name: 'detected_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when the change was detected (end of the run)' },
  ],
};

const lawsuitState: Table = {
  name: 'lawsuit_state',
  comment: 'The state of each lawsuit as the last change detection saw it: what the next run compares with.',
  key: ['code', 'instance'],
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, comment: C.instance },
    { name: 'status', type: 'VARCHAR', comment: 'status seen' },
    { name: 'phase', type: 'VARCHAR', comment: 'phase seen' },
    { name: 'amount', type: 'DECIMAL(18,2)', comment: 'amount seen (BRL)' },
    { name: 'secrecy_level', type: 'INTEGER', comment: 'secrecy level seen' },
    { name: 'steps_count', type: 'INTEGER', notNull: true, comment: 'steps held in the warehouse' },
    { name: 'snapshot_run', type: 'VARCHAR', notNull: true, comment: 'the run whose detection last changed this row' },
    { name: 'snapshot_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when that detection ran' },
  ],
};

const lawsuitStateParties: Table = {
  name: 'lawsuit_state_parties',
  comment: 'The parties of each lawsuit as the last change detection saw them (to find new parties).',
  key: ['code', 'instance', 'party_key'], keptByLoader: true,
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, comment: C.instance },
    { name: 'party_key', type: 'VARCHAR', notNull: true, comment: 'the party\'s document, or name: plus its name without accents in upper case' },
  ],
};

const searchState: Table = {
  name: 'search_state',
  comment: 'Per search, the answer (request) the last change detection compared (to find lawsuits gone from a search).',
  key: ['search_type', 'search_key', 'on_demand', 'lawsuit_instance'],
  columns: [
    { name: 'search_type', type: 'VARCHAR', notNull: true, comment: C.search_type },
    { name: 'search_key', type: 'VARCHAR', notNull: true, comment: C.search_key },
    { name: 'on_demand', type: 'BOOLEAN', notNull: true, comment: 'the search\'s on_demand flag' },
    { name: 'lawsuit_instance', type: 'INTEGER', notNull: true, comment: 'instance filter (-1: all)' },
    { name: 'request_id', type: 'VARCHAR', notNull: true, comment: 'the fully loaded request compared last' },
    { name: 'snapshot_run', type: 'VARCHAR', notNull: true, comment: 'the run whose detection compared it' },
  ],
};

const lawsuitStatusHistory: Table = {
  name: 'lawsuit_status_history',
  comment: 'Status and phase of each lawsuit over time: one row per change seen (the first row when it was first seen).',
  key: ['code', 'instance', 'run_id'], keptByLoader: true,
  columns: [
    { name: 'code', type: 'VARCHAR', notNull: true, comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, comment: C.instance },
    { name: 'run_id', type: 'VARCHAR', notNull: true, comment: 'the run that saw the change' },
    { name: 'valid_from', type: 'TIMESTAMPTZ', notNull: true, comment: 'when the change was seen (end of that run)' },
    { name: 'status', type: 'VARCHAR', comment: 'status from then on' },
    { name: 'phase', type: 'VARCHAR', comment: 'phase from then on' },
    { name: 'previous_status', type: 'VARCHAR', comment: 'status before (NULL at first sight)' },
    { name: 'previous_phase', type: 'VARCHAR', comment: 'phase before (NULL at first sight)' },
    { name: 'provider_updated_at', type: 'TIMESTAMPTZ', comment: 'the provider\'s updated_at of the lawsuit at that moment' },
  ],
};

const changeDetections: Table = {
  name: 'change_detections',
  comment: 'One row per run whose changes were detected (a second detection of the same run inserts nothing).',
  key: ['run_id'],
  columns: [
    { name: 'run_id', type: 'VARCHAR', notNull: true, comment: C.run_id },
    { name: 'detected_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when the detection ran' },
    { name: 'lawsuits_compared', type: 'INTEGER', notNull: true, comment: 'lawsuits compared' },
    { name: 'changes', type: 'INTEGER', notNull: true, comment: 'rows written to lawsuit_changes' },
    { name: 'counts', type: 'JSON', notNull: true, comment: 'rows per kind of change (JSON object)' },
  ],
};

export const changesTables: readonly Table[] = [lawsuitChanges, lawsuitState, lawsuitStateParties, searchState, lawsuitStatusHistory, changeDetections];
