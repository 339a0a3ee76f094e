// An application_error item — a 200 whose response carries no lawsuit but why — read into a row with a typed
// reason. The spec shows one (`{code: 2, message: 'LAWSUIT_NOT_FOUND'}`); the provider's error reference names
// the kinds ("lawsuit not found", "homonym", secrecy, ...: docs.judit.io, resource/errors) without listing their
// codes, so the reason is read from the message first (its words, in English or Portuguese), from the code the
// spec shows second, and is `other` when neither says. Pure.
import type { ApplicationErrorRow } from './rows.js';
import { isObj, str, type Obj } from './values.js';

/** What an application_error means for the search that met it. */
type ErrorReason = 'not_found' | 'homonym' | 'secrecy' | 'credential' | 'court_unavailable' | 'invalid_search' | 'other';

/** The message's words and the reason each names, first match winning (a homonym is found, not "not found"). */
const WORDS: ReadonlyArray<readonly [RegExp, ErrorReason]> = [
  [/HOMON/, 'homonym'],
  [/SECRE|SIGIL|SEGREDO/, 'secrecy'],
  [/CREDENTIAL|CREDENCIA|PASSWORD|SENHA|CAPTCHA|CERTIFICA/, 'credential'],
  [/NOT[\s_-]*FOUND|NAO[\s_-]*ENCONTRAD|INEXISTENT|NENHUM/, 'not_found'],
  [/TIME[\s_-]*OUT|UNAVAILABLE|INDISPONIV|OFFLINE|INSTABILI|COURT[\s_-]*ERROR|TRIBUNAL[\s_-]*ERROR|ERRO[\s_-]*NO[\s_-]*TRIBUNAL/, 'court_unavailable'],
  [/INVALID|INVALIDO/, 'invalid_search'],
];

/** The codes the spec shows, for a message that says nothing known. */
const CODES: Readonly<Record<string, ErrorReason>> = { 2: 'not_found' };

const MARKS = /[\u0300-\u036f]/g;

/** The reason an application_error gives, from its message and its code. */
function errorReason(code: unknown, message: unknown): ErrorReason {
  const text = typeof message === 'string' ? message.normalize('NFD').replace(MARKS, '').toUpperCase() : '';
  for (const [words, reason] of WORDS) if (words.test(text)) return reason;
  const c = str(code);
  return (c !== null ? CODES[c.trim()] : undefined) ?? 'other';
}

/** Longest message kept in the row (the item keeps it whole). */
const MESSAGE_MAX = 1000;

/** The row of an application_error item; its response_data may be of any shape (a string, nothing at all). */
export function applicationErrorRow(item: Obj, responseId: string, runId: string | null): ApplicationErrorRow {
  const data = item.response_data;
  const o: Obj = isObj(data) ? data : {};
  // A response_data that is a bare string is the message itself.
  const message = str(o.message) ?? str(o.error) ?? (typeof data === 'string' ? data : null);
  const code = str(o.code);
  return {
    response_id: responseId, request_id: str(item.request_id), created_at: str(item.created_at),
    error_code: code, message: message === null ? null : message.slice(0, MESSAGE_MAX), reason: errorReason(code, message), run_id: runId,
  };
}
