import { COMMAND_NAMES, COMMAND_SUMMARIES, type CommandName } from '../../src/cli/command-specs.js';
import { flagHelp, flagOptions } from '../../src/shared/options/docs.js';
import { defaultOf, longName, type Option } from '../../src/shared/options/option.js';
import { OPTIONS } from '../../src/shared/options/table.js';

// The option table (src/shared/options/table.ts) as the documentation shows it: the configuration table of
// docs/operating.md, the table of the flags a command reads itself, and the commands table. The product never
// prints these; test/shared/options-are-declared-once.test.ts reads them as rows and holds the docs to them.

const cell = (s: string): string => s.replace(/\|/g, '\\|');
const code = (s: string | undefined): string => (s === undefined ? '' : `\`${s}\``);

/** The flags `command` declares, straight from the option table: the flag as its help writes it, and that help. */
export function declaredFlags(command: CommandName): Array<{ flag: string; help: string; required: boolean }> {
  return flagOptions(command).map(([, o]) => ({ flag: o.flag!, help: flagHelp(o), required: o.required === true }));
}

/**
 * The configuration table: every option the configuration reads, one row each, in the table's order: its
 * variable (and the variable naming a file that holds it), its flag and the commands taking it, its config-file
 * key, what it means, its default.
 */
export function configurationTable(): string {
  const rows = (Object.values(OPTIONS) as Option[]).filter((o) => (o.readBy ?? 'config') === 'config').map((o) => {
    const variable = [code(o.env), code(o.envFile)].filter(Boolean).join(' / ');
    const flag = o.flag ? `${code(`--${longName(o)}`)} (${o.flagOf!.join(', ')})` : '';
    const key = o.secret ? 'never' : code(o.file);
    return `| ${variable} | ${flag} | ${key} | ${cell(o.help)} | ${cell(defaultOf(o) ?? (o.kind.isSwitch ? '`false`' : 'none'))} |`;
  });
  return ['| variable | flag (commands) | config-file key | meaning | default |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The table of the flags one command reads itself (the sandbox's server, query's kind, report's run). */
export function commandFlagsTable(): string {
  const rows = (Object.values(OPTIONS) as Option[]).filter((o) => o.readBy === 'command' || o.readBy === 'sandbox').map((o) => {
    const d = o.required ? 'required' : defaultOf(o) ?? 'none';
    return `| \`${o.flagOf!.join(', ')}\` | ${code(o.flag)} | ${cell(o.help)} | ${cell(d)} |`;
  });
  return ['| command | flag | meaning | default |', '|---|---|---|---|', ...rows].join('\n');
}

/** The commands table: each command, what it does, the flags it takes. */
export function commandsTable(): string {
  const rows = COMMAND_NAMES.map((c) => {
    const flags = flagOptions(c).map(([, o]) => `\`--${longName(o)}\``).join(', ');
    return `| \`${c}\` | ${cell(COMMAND_SUMMARIES[c])} | ${flags} |`;
  });
  return ['| command | what it does | flags |', '|---|---|---|', ...rows].join('\n');
}
