// The kinds of value an option takes: how its text (from a flag, a variable or the config file, all text) is read,
// why a text is refused, and how the value reads in the help and the README. A refusal is worded to follow
// `NAME="text"`, so that every problem names where the value came from and what it was.

type Parsed<T> = { value: T } | { why: string[]; shown?: string };

export interface Kind<T> {
  /** The value read from its text, or the reasons it is refused (and, for a text not fit to print, what to show). */
  parse(text: string): Parsed<T>;
  /** A value as the help and the README write it (a duration in seconds, say). Default String(value). */
  show?(value: T): string;
  /** The allowed values, for commander's check and the help. */
  choices?: readonly string[];
  /** Given as a bare `--flag` on the command line, true when present. */
  isSwitch?: boolean;
}

const refused = (why: string, shown?: string): { why: string[]; shown?: string } => ({ why: [why], ...(shown === undefined ? {} : { shown }) });

export function text(): Kind<string> {
  return { parse: (t) => ({ value: t }) };
}

export function int(min: number, max: number): Kind<number> {
  return {
    parse: (t) => {
      const n = Number(t);
      return Number.isInteger(n) && n >= min && n <= max && t.trim() !== '' ? { value: n } : refused(` must be a whole number from ${min} to ${max}`);
    },
  };
}

export function decimal(min: number, max: number): Kind<number> {
  return {
    parse: (t) => {
      const n = Number(t);
      return t.trim() !== '' && Number.isFinite(n) && n >= min && n <= max ? { value: n } : refused(` must be a number from ${min} to ${max}`);
    },
  };
}

/** A duration given in seconds (decimals allowed), kept in ms. */
export function seconds(min: number, max: number): Kind<number> {
  const s = decimal(min, max);
  return {
    parse: (t) => {
      const p = s.parse(t);
      return 'value' in p ? { value: Math.round(p.value * 1000) } : p;
    },
    show: (ms) => String(ms / 1000),
  };
}

/** A number of zero or more (the sandbox's counts and durations). */
export function nonNegative(): Kind<number> {
  return {
    parse: (t) => {
      const n = Number(t);
      return t.trim() !== '' && Number.isFinite(n) && n >= 0 ? { value: n } : refused(' needs a non-negative number');
    },
  };
}

export function bool(): Kind<boolean> {
  return {
    parse: (t) => (/^(1|true|yes|on)$/i.test(t) ? { value: true } : /^(0|false|no|off)$/i.test(t) ? { value: false }
      : refused(' is not a boolean (allowed: true/false, 1/0, yes/no)')),
    isSwitch: true,
  };
}

/** One of `values`; `noun` names what they are ("a privacy mode"). `aliases` are read as the value they name. */
export function choice<T extends string>(values: readonly T[], noun: string, aliases: Readonly<Record<string, T>> = {}): Kind<T> {
  return {
    parse: (t) => ((values as readonly string[]).includes(t) ? { value: t as T } : t in aliases ? { value: aliases[t] }
      : refused(` is not ${noun} (allowed: ${values.join(', ')})`)),
    choices: values,
  };
}

/** A memory size as DuckDB reads it: `256MB`, `2GB`, `512MiB`. */
export function size(): Kind<string> {
  return {
    parse: (t) => (/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(t.trim()) ? { value: t.trim() } : refused(' is not a size (e.g. 256MB, 2GB)')),
  };
}

const UNITS: Readonly<Record<string, number>> = { '': 1, B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3 };

/** A number of bytes, given plain or with a unit (`512KB`, `200MB`, `1GiB`), from `min` to `max` bytes. */
export function bytes(min: number, max: number): Kind<number> {
  return {
    parse: (t) => {
      const m = /^(\d+(?:\.\d+)?)\s*([KMG]i?B|B)?$/i.exec(t.trim());
      const n = m ? Math.round(Number(m[1]) * UNITS[(m[2] ?? '').toUpperCase()]) : NaN;
      return Number.isFinite(n) && n >= min && n <= max ? { value: n } : refused(` is not a size from ${min} bytes to ${max / 1e9} GB (e.g. 512KB, 200MB, 1GiB)`);
    },
    show: (n) => (n % 1024 ** 2 === 0 ? `${n / 1024 ** 2}MiB` : `${n} bytes`),
  };
}

/** An address to listen on: a host name, an IPv4 or an IPv6 address (brackets dropped). */
export function listenAddress(): Kind<string> {
  return {
    parse: (t) => (/^[A-Za-z0-9.:[\]-]+$/.test(t) ? { value: t.replace(/^\[(.*)\]$/, '$1') }
      : refused(' is not an address to listen on (e.g. 0.0.0.0, ::, 127.0.0.1)')),
  };
}
