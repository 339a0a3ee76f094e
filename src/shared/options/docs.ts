import { defaultOf, longName, type CommandName, type Option } from './option.js';
import { OPTIONS, type OptionName } from './table.js';

// The option table in words: a flag's line in a command's --help, and the documentation's tables (the README's
// configuration and commands). Made from the table, so that the help, the documentation and the code cannot say
// different things; test/shared/options-are-declared-once.test.ts reads them as rows.

const plain = (s: string): string => s.replace(/`/g, '');

/** The options whose flag `command` takes, in the table's order. */
export function flagOptions(command: CommandName): Array<[OptionName, Option]> {
  return (Object.entries(OPTIONS) as Array<[OptionName, Option]>).filter(([, o]) => o.flagOf?.includes(command));
}

/** A flag's help: what it means, where else it may be given, its default ("no default" when there is none). */
export function flagHelp(opt: Option): string {
  const where = [opt.env && `env ${opt.env}`, opt.file && `config file ${opt.file}`].filter(Boolean).join(', ');
  const d = defaultOf(opt);
  const dflt = opt.required ? '' : d === undefined ? (opt.kind.isSwitch ? '' : 'no default') : `default ${d}`;
  return plain([opt.help, where, dflt].filter(Boolean).join('; '));
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');
const code = (s: string | undefined): string => (s === undefined ? '' : `\`${s}\``);

/**
 * The README's configuration table: every option the configuration reads, one row each, in the table's order:
 * its variable (and the variable naming a file that holds it), its flag and the commands taking it, its config-file
 * key, what it means, its default.
 */
export function configurationTable(): string {
  const rows = (Object.values(OPTIONS) as Option[]).filter((o) => (o.readBy ?? 'config') === 'config').map((o) => {
    const variable = [code(o.env), code(o.envFile)].filter(Boolean).join(' / ');
    const flag = o.flag ? `${code(longFlag(o))} (${o.flagOf!.map((c) => c).join(', ')})` : '';
    const key = o.secret ? 'never' : code(o.file);
    return `| ${variable} | ${flag} | ${key} | ${cell(o.help)} | ${cell(defaultOf(o) ?? (o.kind.isSwitch ? '`false`' : 'none'))} |`;
  });
  return ['| variable | flag (commands) | config-file key | meaning | default |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The README's table of the flags one command reads itself (the sandbox's server, query's kind, report's run). */
export function commandFlagsTable(): string {
  const rows = (Object.values(OPTIONS) as Option[]).filter((o) => o.readBy === 'command' || o.readBy === 'sandbox').map((o) => {
    const d = o.required ? 'required' : defaultOf(o) ?? 'none';
    return `| \`${o.flagOf!.join(', ')}\` | ${code(o.flag)} | ${cell(o.help)} | ${cell(d)} |`;
  });
  return ['| command | flag | meaning | default |', '|---|---|---|---|', ...rows].join('\n');
}

function longFlag(o: Option): string {
  return `--${longName(o)}`;
}
