import { defaultOf, type CommandName, type Option } from './option.js';
import { OPTIONS, type OptionName } from './table.js';

// The option table in words: the flags a command takes, and a flag's line in its --help. Made from the table, so
// that the help and the code cannot say different things; the documentation's tables are made from it too
// (test/support/option-tables.ts), and test/shared/options-are-declared-once.test.ts holds the docs to them.

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
