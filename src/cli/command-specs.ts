import { COMMAND_NAMES, type CommandName } from '../shared/options/option.js';

// The commands of `lawsuit-etl`, each said once: the line its --help and the documentation's commands table
// (test/support/option-tables.ts) show. Their flags are the option table's (src/shared/options/table.ts, `flagOf`).

export { COMMAND_NAMES, type CommandName };

export const COMMAND_SUMMARIES: Record<CommandName, string> = {
  run: 'one nightly run: documents -> searches -> warehouse -> transfer files -> changes -> exports -> publish',
  schedule: 'long-running: the cron jobs under jobs/ (node-cron), one run at a time, with health and metrics (and the webhook intake, when LAWSUIT_CALLBACK_PORT is set)',
  receive: 'long-running: the webhook intake; prints the callback URL to give the provider on its first line, writes each delivery to the spool beside the warehouse before answering it, until SIGTERM',
  sandbox: 'serve the emulator of the service (all four base addresses on one port) until SIGTERM; prints its base address on its first line',
  export: 'write the Parquet exports from the published warehouse (read-only: works beside analysts)',
  transfer: 'list, download, load and mark the provider\'s transfer files',
  query: 'a synchronous query (exists, count, grouped, historical) for every document of the list, stored per run',
  track: 'make sure every document of the list has exactly one tracking',
  doctor: 'probe the key and its base addresses (at most 9 calls): page size, sort names, envelope, rate headers and resources refused; prints them and remembers them in the warehouse',
  report: 'write the run report (Markdown and HTML) again for a run',
  rebuild: 'derive every table that comes from response payloads again from responses_raw, run after run, calling no API (after a fix to the flattening); killed or failed, it publishes nothing and the next run does it again first',
};
