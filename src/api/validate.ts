// Just enough checking of the service's bodies to fail clearly at the boundary (API_BAD_RESPONSE naming the
// field) instead of deep inside the pipeline. Objects are dynamic, so unknown properties are kept as they are.

export class ShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShapeError';
  }
}

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function obj(v: unknown, what: string): Obj {
  if (!isObj(v)) throw new ShapeError(`${what} is not an object`);
  return v;
}

export function str(o: Obj, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw new ShapeError(`${what}.${key} is not a non-empty string`);
  return v;
}

export function num(o: Obj, key: string, what: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ShapeError(`${what}.${key} is not a number`);
  return v;
}

export function bool(o: Obj, key: string, what: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new ShapeError(`${what}.${key} is not a boolean`);
  return v;
}

export function arr(o: Obj, key: string, what: string): unknown[] {
  const v = o[key];
  if (!Array.isArray(v)) throw new ShapeError(`${what}.${key} is not an array`);
  return v;
}

/** An object carrying the given non-empty string fields; returned as T, untouched. */
export function record<T>(v: unknown, what: string, stringKeys: readonly string[]): T {
  const o = obj(v, what);
  for (const k of stringKeys) str(o, k, what);
  return o as T;
}
