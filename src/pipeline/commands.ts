import type { Config } from '../shared/config.js';
import type { Stage } from './stage.js';
import { lawsuitTrackingsStage, trackingsCursorStage, trackingsStage } from './stages/trackings.js';
import { changesStage } from './stages/changes.js';
import { documentsStageOf } from './stages/documents.js';
import { lawsuitsStage, lawsuitsStageOf } from './stages/lawsuits.js';
import { attachmentsStage } from './stages/attachments.js';
import { exportsStage } from './stages/exports.js';
import { publishStage } from './stages/publish.js';
import { rebuildStage } from './stages/rebuild.js';
import { searchStageOf } from './stages/search.js';
import { queryStage } from './stages/query.js';
import { trackStage } from './stages/track.js';
import { transferStage } from './stages/transfer.js';
import type { QueryKind } from './sync.js';
import { HandOff } from './stage-hand-off.js';
import type { NightPlan, RunPlan } from './plan.js';
import type { TrackingsTonight } from './tracking/tonight.js';

// Each command is a list of the same stages. A dry run keeps only the stages that plan dry (Stage.plansDry):
// the documents stage, which reads the list and makes the plan, and a trackings night's trackings stage, which
// lists the key's trackings to plan what it would change (a read the provider does not bill).

const COMMAND_NAMES = ['run', 'query', 'track', 'transfer', 'export', 'rebuild'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** Where a night's lawsuits come from (`run --source`, LAWSUIT_SOURCE): a search per document, or the trackings' runs. */
type NightSource = 'searches' | 'trackings';

export function sourceOf(cfg: Pick<Config, 'source'>): NightSource {
  return cfg.source === 'trackings' ? 'trackings' : 'searches';
}

/** A command's stages, and the searches its night plans to buy (what a dry run's summary says it would submit). */
interface CommandStages {
  stages: Stage[];
  searches(): RunPlan | undefined;
}

/**
 * A trackings night: the trackings stage before the search stage, which then needs it to have ended ok: a night
 * whose trackings could not be reconciled buys nothing rather than every search. The documents stage hands its plan
 * to the trackings stage, which hands the search stage the plan narrowed to the searches its trackings chose, the
 * lawsuits stage what the lawsuits' own trackings carry, and the second pass after the lawsuits stage
 * (lawsuit-trackings) the key's trackings, to make those of the lawsuits read whole tonight.
 */
function trackingsNight(): CommandStages {
  const planned = new HandOff<NightPlan>();
  const tonight = new HandOff<TrackingsTonight>();
  const searches = (): RunPlan | undefined => tonight.get()?.searches;
  return {
    stages: [
      documentsStageOf(planned), trackingsStage({ planned, tonight }), searchStageOf({ plan: searches, only: () => tonight.get()?.searchOnly }),
      lawsuitsStageOf(() => tonight.get()?.lawsuits), lawsuitTrackingsStage(tonight), trackingsCursorStage, attachmentsStage, transferStage, changesStage, exportsStage,
      publishStage,
    ],
    searches,
  };
}

/** A searches night: the documents stage hands its plan to the search stage. */
function searchesNight(): CommandStages {
  const planned = new HandOff<NightPlan>();
  const searches = (): RunPlan | undefined => planned.get()?.plan;
  return {
    stages: [documentsStageOf(planned), searchStageOf({ plan: searches }), lawsuitsStage, attachmentsStage, transferStage, changesStage, exportsStage, publishStage],
    searches,
  };
}

/** A command that reads the list and buys no search: its plan is what a search of the list would buy (a dry run says it). */
function listed(rest: readonly Stage[]): CommandStages {
  const planned = new HandOff<NightPlan>();
  return { stages: [documentsStageOf(planned), ...rest], searches: () => planned.get()?.plan };
}

const none = (stages: Stage[]): CommandStages => ({ stages, searches: () => undefined });

function commandStages(command: CommandName, opts: { kind?: QueryKind; dryRun?: boolean; source?: NightSource }): CommandStages {
  const all: Record<CommandName, () => CommandStages> = {
    run: () => (opts.source === 'trackings' ? trackingsNight() : searchesNight()),
    query: () => listed([queryStage(opts.kind ?? 'count'), publishStage]),
    track: () => listed([trackStage, publishStage]),
    transfer: () => none([transferStage, publishStage]),
    export: () => none([exportsStage]),
    rebuild: () => none(rebuildFirst([publishStage])),
  };
  const made = all[command]();
  // A stage that plans offline calls nothing when dry: no client is opened for it, no key is needed.
  const stages = opts.dryRun ? made.stages.filter((s) => s.plansDry).map((s) => (s.plansDry === 'offline' ? { ...s, callsApi: false } : s)) : made.stages;
  return { stages, searches: made.searches };
}

export function stagesFor(command: CommandName, opts: { kind?: QueryKind; dryRun?: boolean; source?: NightSource } = {}): Stage[] {
  return commandStages(command, opts).stages;
}

/**
 * `stages` after a rebuild, each needing it to end ok. A rebuild that fails leaves the derived tables half made:
 * published, they would show analysts a warehouse with lawsuits missing (measured: a rebuild out of memory at
 * 100k lawsuits published an empty one), and the changes stage would read the missing lawsuits as gone. So
 * nothing runs on them and the work copy stays unpublished, where the next run does the rebuild again first.
 */
export function rebuildFirst(stages: readonly Stage[]): Stage[] {
  return [rebuildStage, ...stages.map((s) => ({ ...s, needs: [...s.needs, 'rebuild' as const] }))];
}


/** What a command will do, decided before anything is opened. */
interface CommandPlan extends CommandStages {
  /** It reads the documents list (read first: a list that cannot be read is a usage error, found before anything is opened). */
  readsList: boolean;
  /** It opens the published warehouse read-only and records nothing (a dry run, `export`). */
  readOnly: boolean;
  /**
   * What it may send: nothing (no client, no key needed), reads only (a dry run that lists: any other call is
   * refused before it leaves, whatever a stage asks), or all it needs. Anything but `none` needs the API reachable
   * (or the embedded sandbox started).
   */
  sends: 'none' | 'reads' | 'all';
  /** It takes the run lock (all but a dry run, which writes nothing). */
  locks: boolean;
}

export function commandPlan(command: CommandName, opts: { kind?: QueryKind; dryRun: boolean; source?: NightSource }): CommandPlan {
  const { stages, searches } = commandStages(command, opts);
  return {
    stages, searches,
    readsList: stages.some((s) => s.name === 'documents'),
    readOnly: opts.dryRun || command === 'export',
    sends: !stages.some((s) => s.callsApi) ? 'none' : opts.dryRun ? 'reads' : 'all',
    locks: !opts.dryRun,
  };
}
