// Lenient readers of payload values: the lawsuit object is dynamic, so every field is read defensively and a
// value of the wrong shape becomes NULL rather than an exception. Pure.

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

export function int(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= 2_147_483_647 ? n : null;
}

export function bool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return null;
}

export function list(v: unknown): unknown[] | null {
  return Array.isArray(v) ? v : null;
}

/** Milliseconds of a date-time text, or -Infinity when absent or unreadable (so it never wins a comparison). */
export function timeOf(v: unknown): number {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
}

/**
 * JSON.stringify of an object whose listed properties are already JSON text: the same output, without
 * serialising those parts twice. Any depth (toJson).
 */
export function stringifyWith(o: Obj, done: Readonly<Record<string, string>>): string {
  if (typeof o.toJSON === 'function') return toJson(o) ?? 'null';
  const parts: string[] = [];
  for (const k of Object.keys(o)) {
    const pre = done[k];
    if (pre !== undefined) { parts.push(`${JSON.stringify(k)}:${pre}`); continue; }
    const v = toJson(o[k]);
    if (v !== undefined) parts.push(`${JSON.stringify(k)}:${v}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * JSON.stringify, at any depth: V8's recurses and throws RangeError some thousands of levels down (a payload
 * nested 5,000 deep did), where this falls back to an iterative writer with the same output. Undefined for
 * what JSON.stringify leaves out (undefined, a function).
 */
export function toJson(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return stringifyIteratively(v);
  }
}

/** A container being written: its items or keys, how far, the texts of its members, and its key in its parent. */
type Frame = { items: unknown[]; i: number; out: string[]; key?: string } & ({ keys?: undefined } | { keys: string[]; o: Obj });

const PUSHED = Symbol('pushed');

/** JSON.stringify's output (no indentation, toJSON honoured, undefined and functions left out or null in arrays), without recursion. */
function stringifyIteratively(root: unknown): string | undefined {
  const stack: Frame[] = [];
  // The text of a scalar; undefined for what JSON leaves out; PUSHED after pushing a frame for a container.
  const open = (v: unknown, key?: string): string | undefined | typeof PUSHED => {
    let x = v;
    if (x !== null && typeof x === 'object' && typeof (x as { toJSON?: unknown }).toJSON === 'function') x = (x as { toJSON(): unknown }).toJSON();
    if (x === null || typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' || typeof x === 'bigint') return JSON.stringify(x);
    if (typeof x !== 'object') return undefined;
    stack.push(Array.isArray(x) ? { items: x, i: 0, out: [], key } : { items: [], keys: Object.keys(x), o: x as Obj, i: 0, out: [], key });
    return PUSHED;
  };
  const first = open(root);
  if (first !== PUSHED) return first;
  for (;;) {
    const f = stack[stack.length - 1];
    if (f.keys === undefined && f.i < f.items.length) {
      const r = open(f.items[f.i++]);
      if (r !== PUSHED) f.out.push(r ?? 'null');
      continue;
    }
    if (f.keys !== undefined && f.i < f.keys.length) {
      const k = f.keys[f.i++];
      const r = open(f.o[k], k);
      if (r !== PUSHED && r !== undefined) f.out.push(`${JSON.stringify(k)}:${r}`);
      continue;
    }
    // the container is complete: its text goes to its parent, or is the result
    stack.pop();
    const text = f.keys === undefined ? `[${f.out.join(',')}]` : `{${f.out.join(',')}}`;
    const parent = stack[stack.length - 1];
    if (parent === undefined) return text;
    parent.out.push(parent.keys === undefined ? text : `${JSON.stringify(f.key)}:${text}`);
  }
}
