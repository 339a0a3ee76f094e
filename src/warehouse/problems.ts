// Load problems: a value of a payload that its typed column cannot hold, recorded per item in load_problems
// instead of being dropped in silence. The payload itself is always kept whole in responses_raw; a problem row
// says which field of which response did not fit, the value as received, and what the warehouse did.

import { lit } from './schema/sql.js';

const PROBLEM_CODES = ['missing_key', 'out_of_range', 'not_a_number', 'not_a_date', 'wrong_type', 'too_long', 'not_an_object', 'too_large',
  'not_a_list', 'list_as_object', 'conflicting_duplicate'] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** One sentence per problem: what was wrong and what the warehouse did about it. */
export const PROBLEM_DETAIL: Record<ProblemCode, string> = {
  missing_key: 'the lawsuit has no usable key (code, instance): it is kept in responses_raw only',
  out_of_range: 'the number does not fit the column\'s type (INTEGER, DECIMAL(18,2)): the column is left NULL',
  not_a_number: 'the text is not a number: the column is left NULL',
  not_a_date: 'the text is not a date-time DuckDB can read: the column is left NULL',
  wrong_type: 'the value is not of the column\'s type: the column is left NULL',
  too_long: 'the text is longer than a column holds (48 KB, docs/operating.md "Memory"): the column is left NULL; the payload is whole in responses_raw',
  not_an_object: 'response_data is not an object: the item is kept in responses_raw only',
  too_large: 'the item is larger than the loader flattens: it is kept in responses_raw only, the rest of its page loaded',
  not_a_list: 'the list is neither an array nor an object keyed 0, 1, …: none of its entries is loaded, and the list is taken as not given (a list stored from another payload stays); the payload is whole in responses_raw',
  list_as_object: 'the list came as an object keyed 0, 1, …: its entries were loaded as the list, in key order',
  conflicting_duplicate: 'the response id was listed again with another content: the copy loaded first is kept (responses_raw and the tables), '
    + 'this one (its text in value) is left out whole',
};

/** The sentence for a problem of a key field (code, instance): the whole lawsuit is then kept raw only. */
export function keyDetail(problem: ProblemCode): string {
  return `${PROBLEM_DETAIL[problem].replace(/:.*$/, '')}: the lawsuit has no usable key and is kept in responses_raw only`;
}

/** The sentence for a too long key of a row of a lawsuit (a step's id, a subject's code): the row is left out. */
export const TOO_LONG_KEY_DETAIL = 'the text is longer than a column holds (48 KB, docs/operating.md "Memory"), and it is the row\'s key: the row is left out; '
  + 'the payload is whole in responses_raw';

/** A problem as flatten finds it; the loader adds the item's response id and the run. */
export interface FieldProblem {
  /** The field's path in the lawsuit object, e.g. `instance`, `amount`, `steps[st-2].step_date`. */
  field: string;
  /** The value as received (its JSON text when it came from the service), shortened to VALUE_MAX characters. */
  value: string | null;
  problem: ProblemCode;
  detail: string;
}

const VALUE_MAX = 300;

/** A value for load_problems.value: the raw text, shortened with its full length said. */
export function problemValue(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  return text.length <= VALUE_MAX ? text : `${text.slice(0, VALUE_MAX)}… (${text.length} characters)`;
}

/** A number as JSON writes it, or a numeric literal as received (`1e400`, `9007199254740993`). */
export function isNumeric(v: unknown, literal: string | undefined): boolean {
  return typeof v === 'number' || (literal !== undefined && /^-?\d/.test(literal));
}

const date = lit('not_a_date');
const dateDetail = lit(PROBLEM_DETAIL.not_a_date);
const notDate = (value: string) => `${value} IS NOT NULL AND TRY_CAST(${value} AS TIMESTAMPTZ) IS NULL`;

/**
 * The problems DuckDB's own casts reveal in a staged layer of lawsuits (staging keeps timestamps and amounts as
 * the payload's text, and the merges TRY_CAST them), added to stg_problems. Run for each layer as it is merged:
 * the next layer replaces stg_lawsuits, stg_steps and stg_attachments (load.ts, mergeLayer).
 */
export const INSERT_LAYER_PROBLEMS_SQL = (() => {
  const dateCols = ['distribution_date', 'created_at', 'updated_at', 'crawled_at', 'last_step_date'];
  const parts = dateCols.map((c) => `SELECT response_id, code, instance, '${c}' AS field, ${c} AS value, ${date} AS problem, ${dateDetail} AS detail
  FROM stg_lawsuits WHERE ${notDate(c)}`);
  parts.push(`SELECT response_id, code, instance, 'amount', amount,
    CASE WHEN TRY_CAST(amount AS DOUBLE) IS NULL THEN 'not_a_number' ELSE 'out_of_range' END,
    CASE WHEN TRY_CAST(amount AS DOUBLE) IS NULL THEN ${lit(PROBLEM_DETAIL.not_a_number)} ELSE ${lit(PROBLEM_DETAIL.out_of_range)} END
  FROM stg_lawsuits WHERE amount IS NOT NULL AND TRY_CAST(amount AS DECIMAL(18,2)) IS NULL`);
  parts.push(`SELECT l.response_id, s.code, s.instance, 'steps[' || s.step_id || '].step_date', s.step_date, ${date}, ${dateDetail}
  FROM stg_steps s JOIN stg_lawsuits l ON l.code = s.code AND l.instance = s.instance WHERE ${notDate('s.step_date')}`);
  parts.push(`SELECT l.response_id, a.code, a.instance, 'attachments[' || a.attachment_index || '].attachment_date', a.attachment_date, ${date}, ${dateDetail}
  FROM stg_attachments a JOIN stg_lawsuits l ON l.code = a.code AND l.instance = a.instance WHERE ${notDate('a.attachment_date')}`);
  return `INSERT INTO stg_problems (response_id, code, instance, field, value, problem, detail)\n${parts.join('\nUNION ALL\n')}`;
})();

/** Every problem of the batch (flatten's, its layers' casts and its response items' dates), once per (response, field) ever. */
export const INSERT_PROBLEMS_SQL = `
INSERT INTO load_problems (response_id, code, instance, field, value, problem, detail, run_id, detected_at)
SELECT p.response_id, p.code, p.instance, p.field, p.value, p.problem, p.detail, $1, current_timestamp
FROM (
  SELECT response_id, code, instance, field, left(value, ${VALUE_MAX + 40}) AS value, problem, detail FROM (
    SELECT response_id, code, instance, field, value, problem, detail FROM stg_problems
    UNION ALL
    SELECT response_id, NULL, NULL, 'created_at (of the response item)', created_at, ${date}, ${dateDetail}
    FROM stg_responses WHERE ${notDate('created_at')}
  ) WHERE response_id IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY response_id, field ORDER BY problem) = 1
) p ANTI JOIN load_problems q ON q.response_id = p.response_id AND q.field = p.field`;
