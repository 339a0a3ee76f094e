import type { Stage } from './stage.js';
import { changesStage } from './stages/changes.js';
import { documentsStage } from './stages/documents.js';
import { exportsStage } from './stages/exports.js';
import { publishStage } from './stages/publish.js';
import { rebuildStage } from './stages/rebuild.js';
import { searchStage } from './stages/search.js';
import { queryStage, trackStage } from './stages/sync.js';
import { transferStage } from './stages/transfer.js';
import type { QueryKind } from './sync.js';

// Each command is a list of the same stages. A dry run keeps only what sends nothing and writes nothing: the
// documents stage, which reads the list and makes the plan.

export const COMMAND_NAMES = ['run', 'query', 'track', 'transfer', 'export', 'rebuild'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export function stagesFor(command: CommandName, opts: { kind?: QueryKind; dryRun?: boolean } = {}): Stage[] {
  const all: Record<CommandName, () => Stage[]> = {
    run: () => [documentsStage, searchStage, transferStage, changesStage, exportsStage, publishStage],
    query: () => [documentsStage, queryStage(opts.kind ?? 'count'), publishStage],
    track: () => [documentsStage, trackStage, publishStage],
    transfer: () => [transferStage, publishStage],
    export: () => [exportsStage],
    rebuild: () => [rebuildStage, publishStage],
  };
  const stages = all[command]();
  return opts.dryRun ? stages.filter((s) => s.name === 'documents') : stages;
}
