import { objectMembers, skipValue } from '../shared/raw-json.js';
import type { Delivery } from './envelope.js';

// The spool's format, shared by its writer (the intake) and its reader (the night). A spool is a folder of
// segments, each a file of one delivery a line (NDJSON), appended to and never rewritten:
//
//   <id>.open    the segment the intake is writing (at most one per spool: the intake holds the spool's lock)
//   <id>.ndjson  a closed segment: renamed once full, old or when the intake stopped; it never changes again
//
// An id is the UTC instant the segment was opened, the intake's pid and a counter (`20261125T201602020Z-4242-0001`),
// so that ids sort in the order the segments were written. A line is a record whose first member is the response
// id (the intake rebuilds its idempotency index from that prefix alone, without parsing the rest), then what the
// envelope said, when it came, and the envelope itself as received: its line breaks, which JSON allows only as
// white space between tokens, become spaces, so that the record stays one line and the envelope the same JSON.
// A reader takes only lines ended by a line break: the one an intake is still writing, or a write torn by a crash,
// is not a line yet.

export const OPEN_SUFFIX = '.open';
export const CLOSED_SUFFIX = '.ndjson';
/** The lock file in the spool folder: one intake writes a spool. */
export const INTAKE_LOCK = 'intake.lock';

/** A segment's id: its opening instant (UTC, to the ms), the writer's pid and its counter, sortable as text. */
export function segmentId(at: Date, pid: number, n: number): string {
  return `${at.toISOString().replace(/[-:.]/g, '')}-${pid}-${String(n).padStart(4, '0')}`;
}

/** The id and state of a file of the spool, or undefined for a file that is not a segment. */
export function segmentOf(file: string): { id: string; open: boolean } | undefined {
  const m = /^(\d{8}T\d{9}Z-\d+-\d{4,})(\.open|\.ndjson)$/.exec(file);
  return m ? { id: m[1], open: m[2] === OPEN_SUFFIX } : undefined;
}

/** One record as the reader gets it back. */
export interface SpooledDelivery extends Delivery {
  /** When the intake accepted it (ISO). */
  receivedAt: string;
  /** The envelope's `payload`: the response item, parsed. */
  payload: Record<string, unknown>;
  /** The same as received. */
  payloadText: string;
}

/** The line of a delivery: its record, ended by a line break. */
export function encodeRecord(d: Delivery, body: string, receivedAt: Date): Buffer {
  const head = `{"response_id":${JSON.stringify(d.responseId)},"reference_type":${JSON.stringify(d.referenceType)},`
    + `"reference_id":${JSON.stringify(d.referenceId)},"request_id":${JSON.stringify(d.requestId)},"received_at":"${receivedAt.toISOString()}","envelope":`;
  return Buffer.from(`${head}${body.replace(/[\r\n]/g, ' ')}}\n`, 'utf8');
}

/** The response id a line starts with, read from its prefix alone (or undefined for a line that is not a record). */
export function responseIdOf(line: string): string | undefined {
  const prefix = '{"response_id":';
  if (!line.startsWith(prefix)) return undefined;
  const end = skipValue(line, prefix.length);
  if (end < 0) return undefined;
  try {
    const id: unknown = JSON.parse(line.slice(prefix.length, end));
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** A line read back, or undefined when it is not a whole record (a torn write the intake never acknowledged). */
export function decodeRecord(line: string): SpooledDelivery | undefined {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const envelope = objectMembers(line)?.get('envelope');
  const payloadText = envelope === undefined ? undefined : objectMembers(envelope)?.get('payload');
  const env = r.envelope as Record<string, unknown> | null | undefined;
  const payload = typeof env === 'object' && env !== null ? env.payload : undefined;
  const ok = typeof payload === 'object' && payload !== null && !Array.isArray(payload) && typeof r.response_id === 'string' && typeof r.request_id === 'string' && typeof r.reference_id === 'string'
    && (r.reference_type === 'request' || r.reference_type === 'tracking') && typeof r.received_at === 'string' && payloadText !== undefined;
  if (!ok) return undefined;
  return {
    responseId: r.response_id as string, requestId: r.request_id as string, referenceType: r.reference_type as 'request' | 'tracking',
    referenceId: r.reference_id as string, receivedAt: r.received_at as string, payload: payload as Record<string, unknown>, payloadText: payloadText!,
  };
}
