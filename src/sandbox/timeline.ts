// A lawsuit's life as dated steps, written by walking its procedure's stages (procedure.ts). Only the steps dated
// at or before the time of observation exist, so phase, status, last_step and steps_count move with the sandbox
// clock. The instances of one case are written together: an appeal is distributed after the records went up from
// the judgment it attacks, a superior court's case after the appellate court ruled, an interlocutory appeal within
// its days of the decision it attacks, embargos after the debtor was summoned, an execution after the judgment
// became final; and the first instance comes back, becomes final and is enforced only once its appeal has ended, as
// its ruling decided. Every step keeps the court's calendar and clock (calendar.ts): a court's acts on its days, in
// office hours; a party's filings at working hours, any day.

import { KINDS, type CaseKind } from './case-kinds.js';
import type { AppealKind, Plan } from './plan.js';
import { placeStep, type Timing } from './calendar.js';
import { DAY_MS } from './days.js';
import { appealDays, type AppealRoute } from './laws.js';
import { LANES } from './numbering.js';
import {
  APPEALABLE, appellatePath, claimantWins, dependentPath, EMBARGOS_OUTCOMES, firstInstancePath, FULFILMENT_OUTCOMES, OUTCOMES, OUTCOMES_IN_DEFAULT,
  ROUTINE, ROUTINE_CHANCE, RULINGS, STAGES,
  type Gap, type Outcome, type Phase, type Ruling, type Stage, type StageName, type Story,
} from './procedure.js';
import { hash, Rng } from './random.js';
import { ACTS, type Act, type ActName } from './step-texts.js';
import type { CaseGroup } from './tribunals.js';

export interface StepPoint {
  /** Position in the lawsuit's whole life (ids and wording are drawn from it). */
  k: number;
  dateMs: number;
  stage: StageName;
  act: Act;
  phase: Phase;
  /** The lawsuit is over once this step is reached. */
  finished: boolean;
}

/** What writing a life needs to know of the universe: the plans, and what kind of second instance a case has. */
interface CaseSource {
  readonly seed: number;
  plan(i: number): Plan;
  /** The kind of the second instance of base case `base` ('none' without one). */
  twinKind(base: number): AppealKind;
}

const HOUR_MS = 3_600_000;

/** Movements a party files (a petition joined, a case brought): any day, at working hours; the rest is the court's. */
const FILED: ReadonlySet<string> = new Set(['85', '26']);
/** Hearings and judgment sessions: the court's days, out of the year-end suspension. */
const SITTINGS: ReadonlySet<string> = new Set(['970', '237', '238', '239', '200']);
const timingOf = (act: Act): Timing => (FILED.has(act.code) ? 'filing' : SITTINGS.has(act.code) ? 'session' : 'court');

/** The appeal an act files, by the case's branch (its days: laws.ts). */
function routeOf(act: ActName, group: CaseGroup): AppealRoute {
  const criminal = group === 'criminal' || group === 'military';
  if (act === 'clarificationFiled') return criminal ? 'criminalClarification' : 'clarification';
  if (criminal) return 'criminalAppeal';
  if (group === 'labour') return 'labourAppeal';
  return group === 'smallClaims' || group === 'federalSmallClaims' ? 'smallClaimsAppeal' : 'appeal';
}

/** Writes the steps of one life, stage after stage, advancing its date by each stage's gaps, on the court's calendar. */
class Writer {
  readonly out: StepPoint[] = [];
  constructor(private readonly rng: Rng, private date: number, private readonly pace: number, private readonly court: { uf: string; group: CaseGroup }) {}

  get last(): number {
    return this.date;
  }
  /** Moves the date to `ms` (when another instance's life decides it). */
  resumeAt(ms: number): void {
    this.date = Math.max(this.date, ms);
  }
  days([lo, hi]: readonly [number, number], paced = true): number {
    return Math.floor((lo + this.rng.next() * (hi - lo)) * (paced ? this.pace : 1) * DAY_MS) + this.rng.int(8 * HOUR_MS);
  }
  stage(name: StageName): void {
    const st: Stage = STAGES[name];
    if (st.restBefore) this.date += this.days(st.restBefore, false);
    for (const [act, chance, gap] of st.acts) {
      if (chance < 1 && this.rng.next() >= chance) continue;
      this.step(name, act, gap ?? st.gap);
      if (st.routine && this.rng.next() < ROUTINE_CHANCE) this.step(name, ROUTINE[this.rng.int(ROUTINE.length)], st.gap);
    }
  }
  private step(stage: StageName, name: ActName, gap: Gap): void {
    const act: Act = ACTS[name];
    if (this.out.length > 0) {
      const previous = this.date;
      // An appeal is filed within its days of the decision's publication (the step before it), counted as the law
      // of the day counts them: calendar days are never more than working days, so the filing keeps either count.
      const ahead = gap === 'deadline'
        ? Math.floor((1 + this.rng.next() * (appealDays(routeOf(name, this.court.group), previous) - 2)) * DAY_MS)
        : Math.max(60_000, this.days(gap));
      this.date = placeStep(previous + ahead, previous, timingOf(act), this.court.uf, this.rng.next(), this.rng.next());
    }
    const st: { phase: Phase; finished?: boolean } = STAGES[stage];
    this.out.push({ k: this.out.length, dateMs: this.date, stage, act, phase: st.phase, finished: st.finished ?? false });
  }
}

function pick<T>(items: ReadonlyArray<readonly [T, number]>, u: number): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = u * total;
  for (const [item, w] of items) { if (x < w) return item; x -= w; }
  return items[items.length - 1][0];
}

/** Share of the cases that can have an agravo whose early interim decision no one appealed. */
const UNAPPEALED_DECISION = 0.12;

/**
 * How a first instance's story goes: an appealed case is judged, a case whose judgment is executed apart was won,
 * a case with an agravo had the decision it attacks, a defendant without a lawyer lets the case run in default.
 */
function storyOf(seed: number, p: Plan, twin: AppealKind): Story {
  const r = new Rng(hash(seed, 710, p.index));
  const inDefault = p.defendantUnrepresented;
  let choices = (inDefault ? OUTCOMES_IN_DEFAULT[p.kind.procedure] : undefined) ?? OUTCOMES[p.kind.procedure];
  if (twin === 'appeal' || twin === 'superior') choices = choices.filter(([o]) => APPEALABLE.has(o));
  else if (twin === 'execution') choices = choices.filter(([o]) => o === 'granted' || o === 'partlyGranted');
  else if (twin !== 'none') choices = choices.filter(([o]) => o !== 'cancelled');
  const outcome: Outcome = pick(choices, r.next());
  const story: Story = {
    outcome,
    settlesEarly: r.next() < 0.4, hearing: r.next() < 0.5, expert: r.next() < 0.45, enforced: r.next() < 0.7, reactivated: r.next() < 0.06,
    inDefault, medical: false, drugRite: false, enforcedApart: twin === 'execution',
  };
  const execution = p.kind.procedure === 'execution' || p.kind.procedure === 'taxExecution';
  if (p.kind.interlocutoryAppeals && (twin === 'interlocutory' || r.next() < UNAPPEALED_DECISION)) {
    story.interim = execution ? 'execution' : r.next() < 0.5 ? 'granted' : 'refused';
  }
  if (p.kind.procedure === 'socialSecurity') story.medical = p.topic?.medical === true;
  // A work accident is judged on a physician's report (CLT art. 195 for other hazards: an engineer's).
  if (p.kind.group === 'labour' && !inDefault) story.medical = p.subjectCodes.includes('2569');
  if (p.kind.procedure === 'criminal') story.drugRite = p.classCode === '300';
  return story;
}

function rulingOf(seed: number, p: Plan): { ruling: Ruling; opinion: boolean; clarified: boolean } {
  const r = new Rng(hash(seed, 720, p.index));
  const ruling = pick(RULINGS, r.next());
  const group = p.kind.group;
  const opinion = (group === 'criminal' || group === 'military' || p.entity !== undefined) && r.next() < 0.7;
  return { ruling, opinion, clarified: r.next() < 0.15 };
}

const lives = new WeakMap<CaseSource, Map<number, StepPoint[]>>();
/** Lives kept per source: a base and its appeal are written together, and a search asks for both in a row. */
const KEPT = 256;

function remember(src: CaseSource, i: number, life: StepPoint[]): StepPoint[] {
  let m = lives.get(src);
  if (!m) { m = new Map(); lives.set(src, m); }
  if (m.size >= KEPT) m.delete(m.keys().next().value!);
  m.set(i, life);
  return life;
}

const writerOf = (seed: number, salt: number, p: Plan, start: number) => new Writer(new Rng(hash(seed, salt, p.index)), start, p.pace, { uf: p.courtUf, group: p.kind.group });

/** A first instance up to the records going up (or its whole life when it is not appealed). */
function headOf(src: CaseSource, p: Plan): { w: Writer; story: Story; tail: (won: boolean) => StageName[]; appealed: boolean } {
  const twin = src.twinKind(p.index);
  const story = storyOf(src.seed, p, twin);
  const appealed = twin === 'appeal' || twin === 'superior';
  const { head, tail } = firstInstancePath(p.kind.procedure, story, appealed);
  const w = writerOf(src.seed, 711, p, p.distributionMs);
  for (const s of head) if (s !== 'awaitingAppeal') w.stage(s);
  return { w, story, tail, appealed };
}

/** Days an appellate court takes over an appeal that is not in the universe (before a superior court's case). */
const UNSEEN_APPEAL_DAYS: readonly [number, number] = [300, 700];

/** The step a child comes after: the decision an agravo attacks (its publication when published), the summons, the res judicata. */
function parentStep(out: readonly StepPoint[], kind: 'interlocutory' | 'dependency' | 'execution'): StepPoint {
  if (kind === 'interlocutory') {
    const d = out.findIndex((s) => s.act === ACTS.injunctionGranted || s.act === ACTS.injunctionRefused || s.act === ACTS.objectionRejected);
    return out[d + 1]?.act === ACTS.decisionPublished ? out[d + 1] : out[d];
  }
  return out.find((s) => s.act === (kind === 'dependency' ? ACTS.summonsIssued : ACTS.resJudicata))!;
}

/**
 * When the child of base p is distributed: an appeal shortly after the records went up, a superior court's case
 * after the appellate court ruled, an agravo within its days of the decision it attacks, embargos within days of
 * the summons, the fulfilment of a judgment once the creditor asks, after it became final.
 */
export function secondInstanceDistribution(src: CaseSource, base: Plan, kind: AppealKind, index: number): number {
  const { w } = headOf(src, base);
  const r = new Rng(hash(src.seed, 730, index));
  const days = (lo: number, hi: number) => Math.floor((lo + r.next() * (hi - lo)) * DAY_MS) + r.int(8 * HOUR_MS);
  const child = src.plan(index);
  const place = (ms: number, after: number, timing: Timing) => placeStep(ms, after, timing, child.courtUf, r.next(), r.next());
  switch (kind) {
    case 'interlocutory': {
      const from = parentStep(w.out, 'interlocutory').dateMs;
      return place(from + Math.floor((1 + r.next() * (appealDays('interlocutory', from) - 2)) * DAY_MS), from, 'filing');
    }
    case 'dependency': { const from = parentStep(w.out, 'dependency').dateMs; return place(from + days(3, 12), from, 'filing'); }
    case 'execution': { const from = parentStep(w.out, 'execution').dateMs; return place(from + days(15, 120), from, 'filing'); }
    case 'superior': return place(w.last + days(...UNSEEN_APPEAL_DAYS) + days(60, 200), w.last, 'court');
    default: return place(w.last + days(3, 25), w.last, 'court');
  }
}

function firstInstanceLife(src: CaseSource, p: Plan): StepPoint[] {
  const { w, story, tail, appealed } = headOf(src, p);
  if (!appealed) return w.out;
  const up = src.plan(p.index + 1);
  const above = lifeOf(src, up);
  const end = above.length > 0 ? above[above.length - 1].dateMs : up.distributionMs;
  // The records come down from the appellate court (after a superior court, through it).
  w.resumeAt(end + w.days(up.appeal === 'superior' ? [30, 90] : [5, 30], false));
  for (const s of tail(claimantWins(story.outcome, rulingOf(src.seed, up).ruling))) w.stage(s);
  return w.out;
}

function appellateLife(src: CaseSource, p: Plan): StepPoint[] {
  const { ruling, opinion, clarified } = rulingOf(src.seed, p);
  const w = writerOf(src.seed, 721, p, p.distributionMs);
  for (const s of appellatePath(p.appeal as 'appeal' | 'interlocutory' | 'superior', ruling, opinion, clarified)) w.stage(s);
  return w.out;
}

/** An execution of judgment or embargos, opened from their case under a number of their own. */
function dependentLife(src: CaseSource, p: Plan): StepPoint[] {
  const kind = p.appeal as 'execution' | 'dependency';
  const outcome = pick(kind === 'execution' ? FULFILMENT_OUTCOMES : EMBARGOS_OUTCOMES, new Rng(hash(src.seed, 740, p.index)).next());
  const w = writerOf(src.seed, 741, p, p.distributionMs);
  for (const s of dependentPath(kind, outcome)) w.stage(s);
  return w.out;
}

/** Every step of lawsuit p's life, oldest first, whatever the time. */
export function lifeOf(src: CaseSource, p: Plan): StepPoint[] {
  const kept = lives.get(src)?.get(p.index);
  if (kept) return kept;
  const life = p.appeal === 'none' ? firstInstanceLife(src, p) : p.appeal === 'execution' || p.appeal === 'dependency' ? dependentLife(src, p) : appellateLife(src, p);
  return remember(src, p.index, life);
}

/** The steps of lawsuit p dated at or before t, oldest first. */
export function stepsUpTo(src: CaseSource, p: Plan, t: number): StepPoint[] {
  const life = lifeOf(src, p);
  let n = 0;
  while (n < life.length && life[n].dateMs <= t) n++;
  return n === life.length ? life : life.slice(0, n);
}

export function phaseOf(last: StepPoint | undefined): Phase {
  return last?.phase ?? 'Inicial';
}

export function statusOf(last: StepPoint | undefined): 'Ativo' | 'Finalizado' {
  return last?.finished ? 'Finalizado' : 'Ativo';
}

/**
 * Whether the case's defendant stands on the active side of this instance: the party that lost appeals (the
 * defendant condemned, the claimant dismissed; either, when the claim was granted in part), the party an interim
 * decision went against files the agravo, the debtor brings the embargos.
 */
export function sidesSwapped(src: CaseSource, p: Plan): boolean {
  switch (p.appeal) {
    case 'dependency': return true;
    case 'interlocutory': return storyOf(src.seed, src.plan(p.base), p.appeal).interim !== 'refused';
    case 'appeal': case 'superior': {
      const { outcome } = storyOf(src.seed, src.plan(p.base), p.appeal);
      return outcome === 'granted' || (outcome === 'partlyGranted' && hash(src.seed, 742, p.base) % 2 === 0);
    }
    default: return false;
  }
}

/**
 * The longest a case's life can run before a child of `kind` is distributed, in days: every act of its longest path
 * at its longest gap and slowest pace, moved each to the court's next day after the longest closure (the recess),
 * plus the wait before the child. numbering.ts numbers a child by the years since its case: this proves its lanes
 * hold every life.
 */
function longestWaitDays(kind: 'superior' | 'execution' | 'dependency' | 'interlocutory'): number {
  const SLOWEST = 1.5;
  const CLOSED = 22;
  const stageDays = (name: StageName): number => {
    const st: Stage = STAGES[name];
    let d = st.restBefore?.[1] ?? 0;
    for (const [, , gap] of st.acts) {
      const g = gap ?? st.gap;
      d += (g === 'deadline' ? 15 : g[1] * SLOWEST + 1 / 3 + CLOSED) * (st.routine ? 2 : 1);
    }
    return d;
  };
  let worst = 0;
  const can = (k: CaseKind) => (kind === 'superior' ? k.superior !== undefined : kind === 'execution' ? k.children?.execution !== undefined
    : kind === 'dependency' ? k.children?.dependency !== undefined : k.interlocutoryAppeals);
  for (const procedure of new Set(Object.values(KINDS as Record<string, CaseKind>).filter(can).map((k) => k.procedure))) {
    const execution = procedure === 'execution' || procedure === 'taxExecution';
    for (const [outcome] of OUTCOMES[procedure]) {
      const story: Story = {
        outcome, settlesEarly: false, hearing: true, expert: true, enforced: true, reactivated: false, inDefault: false,
        interim: execution ? 'execution' : 'granted', medical: true, drugRite: false, enforcedApart: true,
      };
      const head = firstInstancePath(procedure, story, kind === 'superior').head;
      const interim = head.findIndex((n) => n === 'injunctionGranted' || n === 'executionDecision');
      const until = kind === 'interlocutory' ? interim + 1 : kind === 'dependency' ? head.indexOf('executionSummons') + 1 : head.length;
      const days = head.slice(0, Math.max(0, until)).reduce((s, name) => s + (name === 'awaitingAppeal' ? 0 : stageDays(name)), 0);
      worst = Math.max(worst, days);
    }
  }
  const wait = { superior: UNSEEN_APPEAL_DAYS[1] + 200 + CLOSED, execution: 120 + CLOSED, dependency: 12 + CLOSED, interlocutory: 15 + CLOSED }[kind];
  return worst + wait;
}

// A child's number counts the years since its case (numbering.ts); a life that could outlast its lanes is a bug in
// the stage tables, caught when the module loads.
for (const kind of ['superior', 'execution', 'dependency', 'interlocutory'] as const) {
  const years = longestWaitDays(kind) / 365 + 1;
  if (years >= LANES[kind]) throw new Error(`a ${kind} may come ${years.toFixed(1)} years after its case: more than numbering.ts's ${LANES[kind]} lanes`);
}
