// What the intake accepts: the provider's webhook envelope (REFERENCE.md, "Two levels", Webhooks), `{user_id,
// callback_id, event_type: "response_created", reference_type: "request" | "tracking", reference_id, payload:
// {request_id, response_id, response_type, response_data, ...}}`. Only `response_created` is documented, and the
// night needs a response id (what idempotency is taken on) and the request it answers; anything else is refused
// before a byte is written, with a status that tells the provider not to retry as is (4xx). Pure: text in, verdict out.

/** A delivery the intake keeps. */
export interface Delivery {
  responseId: string;
  requestId: string;
  referenceType: 'request' | 'tracking';
  /** The request's id, or the tracking's whose run the request is. */
  referenceId: string;
}

/** Why a body is refused: `not_json` (400) or `unknown_envelope` (422). */
type EnvelopeRefusal = { ok: false; status: 400 | 422; reason: 'not_json' | 'unknown_envelope'; detail: string };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;

/** The delivery a body carries, or why it is refused. */
export function readEnvelope(body: string): { ok: true; delivery: Delivery } | EnvelopeRefusal {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return { ok: false, status: 400, reason: 'not_json', detail: 'the body is not JSON' };
  }
  const refuse = (detail: string): EnvelopeRefusal => ({ ok: false, status: 422, reason: 'unknown_envelope', detail });
  if (!isObj(v)) return refuse('the body is not a JSON object');
  if (v.event_type !== 'response_created') return refuse(`event_type ${JSON.stringify(v.event_type)?.slice(0, 60) ?? 'absent'} is not response_created`);
  if (v.reference_type !== 'request' && v.reference_type !== 'tracking') return refuse('reference_type is neither request nor tracking');
  if (!text(v.reference_id)) return refuse('reference_id is not an id');
  const p = v.payload;
  if (!isObj(p)) return refuse('payload is not an object');
  if (!text(p.response_id)) return refuse('payload.response_id is not an id');
  if (!text(p.request_id)) return refuse('payload.request_id is not an id');
  return { ok: true, delivery: { responseId: p.response_id, requestId: p.request_id, referenceType: v.reference_type, referenceId: v.reference_id } };
}
