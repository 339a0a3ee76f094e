import { C } from '../common.js';
import type { Table } from '../types.js';

const responsesRaw: Table = {
  name: 'responses_raw',
  comment: 'Every response item exactly as received, application errors included.',
  key: ['response_id'], keptByLoader: true,
  stage: { as: 'responses' },
  columns: [
    { name: 'response_id', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'the provider\'s response item id' },
    { name: 'request_id', type: 'VARCHAR', stage: 'VARCHAR', comment: C.request_id },
    { name: 'response_type', type: 'VARCHAR', stage: 'VARCHAR', comment: 'lawsuit or application_error' },
    { name: 'created_at', type: 'TIMESTAMPTZ', stage: 'VARCHAR', comment: 'when the provider created the item' },
    { name: 'item', type: 'JSON', stage: 'JSON', comment: 'the whole item (JSON); NULL when too long for a column: see raw_parts and v_responses_raw' },
    { name: 'run_id', type: 'VARCHAR', stage: 'VARCHAR', comment: C.run_id },
    { name: 'loaded_at', type: 'TIMESTAMPTZ', notNull: true, load: 'current_timestamp', comment: 'when it was loaded' },
  ],
};

const rawParts: Table = {
  name: 'raw_parts',
  comment: 'Texts too long for a column (over 48 KB), in parts: a response item (responses_raw.item is then NULL) or a lawsuit\'s raw (lawsuits.raw NULL). v_responses_raw and v_lawsuit_raw give them whole.',
  key: ['owner', 'response_id', 'code', 'instance', 'part'], keptByLoader: true,
  stage: { as: 'parts' },
  columns: [
    { name: 'owner', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'whose text: responses_raw.item or lawsuits.raw' },
    { name: 'response_id', type: 'VARCHAR', stage: 'VARCHAR', comment: 'the response item (owner responses_raw.item)' },
    { name: 'code', type: 'VARCHAR', stage: 'VARCHAR', comment: `${C.code} (owner lawsuits.raw)` },
    { name: 'instance', type: 'INTEGER', stage: 'INTEGER', comment: `${C.instance} (owner lawsuits.raw)` },
    { name: 'part', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: 'position of the part (0-based): the text is the parts joined in this order' },
    { name: 'text', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'the part (at most 16,384 characters)' },
  ],
};

const searchHits: Table = {
  name: 'search_hits',
  comment: 'Which request (search) found which lawsuit.',
  key: ['request_id', 'code', 'instance'], keptByLoader: true,
  stage: { as: 'hits' },
  export: {},
  columns: [
    { name: 'request_id', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.request_id },
    { name: 'code', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: C.code },
    { name: 'instance', type: 'INTEGER', notNull: true, stage: 'INTEGER', comment: C.instance },
    { name: 'response_id', type: 'VARCHAR', stage: 'VARCHAR', comment: 'the response item that carried it' },
    { name: 'first_seen_at', type: 'TIMESTAMPTZ', notNull: true, load: 'current_timestamp', comment: 'when this request first returned it' },
  ],
};

const loadProblems: Table = {
  name: 'load_problems',
  comment: 'Values of a response item its typed columns could not hold (too large a number, an unreadable date, no usable key, too large an item): the item is whole in responses_raw; each row says what did not fit and what was done.',
  key: ['response_id', 'field'], keptByLoader: true,
  stage: { as: 'problems' },
  columns: [
    { name: 'response_id', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'the response item (responses_raw.response_id)' },
    { name: 'code', type: 'VARCHAR', stage: 'VARCHAR', comment: `${C.code} (NULL when the payload had none usable)` },
    { name: 'instance', type: 'INTEGER', stage: 'INTEGER', comment: `${C.instance} (NULL when it did not fit)` },
    { name: 'field', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'the field in the lawsuit object, e.g. instance, amount, steps[<step_id>].step_date, or (item)' },
    { name: 'value', type: 'VARCHAR', stage: 'VARCHAR', comment: 'the value as received (its JSON text, digit for digit), shortened past 300 characters' },
    { name: 'problem', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'missing_key, out_of_range, not_a_number, not_a_date, wrong_type, too_long, not_an_object, too_large, not_a_list, list_as_object or conflicting_duplicate' },
    { name: 'detail', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'what was wrong and what the warehouse did about it' },
    { name: 'run_id', type: 'VARCHAR', comment: 'the run that found it' },
    { name: 'detected_at', type: 'TIMESTAMPTZ', notNull: true, comment: 'when it was found' },
  ],
};

const applicationErrors: Table = {
  name: 'application_errors',
  comment: 'The application_error items of the responses (a 200 with no lawsuit: not found, a homonym, secrecy, ...), one per item, with a typed reason read from its code and message; the item itself is whole in responses_raw.',
  key: ['response_id'], keptByLoader: true,
  stage: { as: 'errors' },
  export: {},
  columns: [
    { name: 'response_id', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'the response item (responses_raw.response_id)' },
    { name: 'request_id', type: 'VARCHAR', stage: 'VARCHAR', comment: C.request_id },
    { name: 'created_at', type: 'TIMESTAMPTZ', stage: 'VARCHAR', comment: 'when the provider created the item' },
    { name: 'error_code', type: 'VARCHAR', stage: 'VARCHAR', comment: 'the item\'s code as given (the spec shows 2 for a lawsuit not found)' },
    { name: 'message', type: 'VARCHAR', stage: 'VARCHAR', privacy: 'cpf text', comment: 'the item\'s message as given (e.g. LAWSUIT_NOT_FOUND), cut to 1,000 characters' },
    { name: 'reason', type: 'VARCHAR', notNull: true, stage: 'VARCHAR', comment: 'what it means, read from the message and code: not_found, homonym, secrecy, credential, court_unavailable, invalid_search or other' },
    { name: 'run_id', type: 'VARCHAR', stage: 'VARCHAR', comment: C.run_id },
  ],
};

export const responsesTables: readonly Table[] = [responsesRaw, rawParts, searchHits, loadProblems, applicationErrors];
