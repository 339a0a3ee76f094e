import { longName, type Option } from './option.js';

// A command line read against the table, for the programs that read their own (the sandbox's server, which
// also runs alone, and the scheduler): `--flag value`, `--flag=value`, or a bare switch. Nothing stops at the
// first problem, so that one refusal lists them all, in the order they were given.

/** A flag given, by option name, with its text (a switch gives 'true'); or why an argument is not one. */
type ArgvItem<N extends string> = { name: N; flag: string; value: string } | { problem: string };

export function readArgv<N extends string>(argv: readonly string[], options: Readonly<Record<N, Option>>): ArgvItem<N>[] {
  const byLong = new Map<string, N>();
  for (const name of Object.keys(options) as N[]) {
    const long = longName(options[name]);
    if (long !== undefined) byLong.set(`--${long}`, name);
  }
  const items: ArgvItem<N>[] = [];
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const name = byLong.get(flag);
    if (name === undefined) { items.push({ problem: `unknown flag ${a}` }); continue; }
    const value = options[name].kind.isSwitch ? inline ?? 'true' : inline ?? argv[++k];
    items.push(value === undefined ? { problem: `${flag} needs a value` } : { name, flag, value });
  }
  return items;
}
