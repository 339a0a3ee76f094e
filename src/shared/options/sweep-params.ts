import type { Kind } from './kinds.js';

/**
 * The query parameters of the responses listing the sweep uses (`LAWSUIT_SWEEP_PARAMS`, e.g.
 * `created_gte=createdFrom,created_lte=createdTo,order_by=sort:createdAt,order=direction:ASC`).
 */
export interface SweepParams {
  /** Response created_at greater than or equal to. Default `created_at_gte`. */
  createdGte: string;
  /** Response created_at lower than or equal to. Default `created_at_lte`. */
  createdLte: string;
  /** The field-to-sort-by parameter and its value for the creation date. Default `order_by`, `created_at`. */
  orderBy: string;
  orderByValue: string;
  /** The sort-direction parameter and its value for ascending. Default `order`, `asc`. */
  order: string;
  orderAsc: string;
}

const DEFAULT_SWEEP_PARAMS: Readonly<SweepParams> = {
  createdGte: 'created_at_gte', createdLte: 'created_at_lte', orderBy: 'order_by', orderByValue: 'created_at', order: 'order', orderAsc: 'asc',
};

const PARAM_TOKEN = /^[A-Za-z0-9_.~[\]-]{1,64}$/;
const FORM = '(form: created_gte=NAME,created_lte=NAME,order_by=NAME:VALUE,order=NAME:VALUE)';

/** `role=name[:value]` pairs over the defaults; roles created_gte, created_lte (name only), order_by, order (name and value). */
export function sweepParams(): Kind<SweepParams | undefined> {
  return {
    parse: (v) => {
      if (v.trim() === '') return { value: undefined };
      const out: SweepParams = { ...DEFAULT_SWEEP_PARAMS };
      const why: string[] = [];
      for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
        const bad = applyPart(out, part);
        if (bad) why.push(`: ${bad} ${FORM}`);
      }
      return why.length ? { why, shown: v.slice(0, 200) } : { value: out };
    },
  };
}

/** Sets one `role=name[:value]` on `out`, or says why it cannot. */
function applyPart(out: SweepParams, part: string): string | undefined {
  const m = /^([a-z_]+)=([^:]*)(?::(.*))?$/.exec(part);
  if (!m) return `${JSON.stringify(part)} is not role=name`;
  const [, role, name, value] = m;
  if (!PARAM_TOKEN.test(name) || (value !== undefined && !PARAM_TOKEN.test(value))) return `${JSON.stringify(part)} has a name or value that is not a plain query token`;
  if (role === 'created_gte' || role === 'created_lte') {
    if (value !== undefined) return `${role} takes a name only`;
    out[role === 'created_gte' ? 'createdGte' : 'createdLte'] = name;
  } else if (role === 'order_by') {
    out.orderBy = name;
    if (value !== undefined) out.orderByValue = value;
  } else if (role === 'order') {
    out.order = name;
    if (value !== undefined) out.orderAsc = value;
  } else return `unknown role ${JSON.stringify(role)} (allowed: created_gte, created_lte, order_by, order)`;
  return undefined;
}
