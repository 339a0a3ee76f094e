// A lawsuit's life as dated steps, written by walking its procedure's stages (procedure.ts). Only the steps dated
// at or before the time of observation exist, so phase, status, last_step and steps_count move with the sandbox
// clock. The instances of one case are written together: an appeal is distributed after the records went up from
// the judgment it attacks, a superior court's case after the appellate court ruled, an interlocutory appeal after
// the decision it attacks; and the first instance comes back, becomes final and is enforced only once its appeal
// has ended, as its ruling decided.

import type { AppealKind, Plan } from './plan.js';
import { DAY_MS } from './days.js';
import {
  APPEALABLE, appellatePath, claimantWins, firstInstancePath, OUTCOMES, ROUTINE, ROUTINE_CHANCE, RULINGS, STAGES,
  type Outcome, type Phase, type Ruling, type Stage, type StageName, type Story,
} from './procedure.js';
import { hash, Rng } from './random.js';
import { ACTS, type Act, type ActName } from './step-texts.js';

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

/** Writes the steps of one life, stage after stage, advancing its date by each stage's gaps. */
class Writer {
  readonly out: StepPoint[] = [];
  constructor(private readonly rng: Rng, private date: number, private readonly pace: number) {}

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
  private step(stage: StageName, act: ActName, gap: readonly [number, number]): void {
    if (this.out.length > 0) this.date += Math.max(60_000, this.days(gap));
    const st: { phase: Phase; finished?: boolean } = STAGES[stage];
    this.out.push({ k: this.out.length, dateMs: this.date, stage, act: ACTS[act], phase: st.phase, finished: st.finished ?? false });
  }
}

function pick<T>(items: ReadonlyArray<readonly [T, number]>, u: number): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = u * total;
  for (const [item, w] of items) { if (x < w) return item; x -= w; }
  return items[items.length - 1][0];
}

/** How a first instance's story goes; an appealed case is judged, a case with an interlocutory appeal is not cancelled. */
function storyOf(seed: number, p: Plan, twin: AppealKind): Story {
  const r = new Rng(hash(seed, 710, p.index));
  let choices = OUTCOMES[p.kind.procedure];
  if (twin === 'appeal' || twin === 'superior') choices = choices.filter(([o]) => APPEALABLE.has(o));
  else if (twin === 'interlocutory') choices = choices.filter(([o]) => o !== 'cancelled');
  const outcome: Outcome = pick(choices, r.next());
  return {
    outcome,
    settlesEarly: r.next() < 0.4, hearing: r.next() < 0.5, expert: r.next() < 0.45, enforced: r.next() < 0.7, reactivated: r.next() < 0.06,
  };
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

/** A first instance up to the records going up (or its whole life when it is not appealed). */
function headOf(src: CaseSource, p: Plan): { w: Writer; story: Story; tail: (won: boolean) => StageName[]; appealed: boolean } {
  const twin = src.twinKind(p.index);
  const story = storyOf(src.seed, p, twin);
  const appealed = twin === 'appeal' || twin === 'superior';
  const { head, tail } = firstInstancePath(p.kind.procedure, story, appealed);
  const w = new Writer(new Rng(hash(src.seed, 711, p.index)), p.distributionMs, p.pace);
  for (const s of head) if (s !== 'awaitingAppeal') w.stage(s);
  return { w, story, tail, appealed };
}

/** Days an appellate court takes over an appeal that is not in the universe (before a superior court's case). */
const UNSEEN_APPEAL_DAYS: readonly [number, number] = [300, 700];

/**
 * When the second instance of base p is distributed: an appeal shortly after the records went up, a superior
 * court's case after the appellate court ruled, an interlocutory appeal shortly after the decision it attacks.
 */
export function secondInstanceDistribution(src: CaseSource, base: Plan, kind: AppealKind, index: number): number {
  const { w } = headOf(src, base);
  const r = new Rng(hash(src.seed, 730, index));
  const days = (lo: number, hi: number) => Math.floor((lo + r.next() * (hi - lo)) * DAY_MS) + r.int(8 * HOUR_MS);
  if (kind === 'interlocutory') {
    const decision = w.out.find((s) => s.act.code === '11010' || s.act === ACTS.concludedForDecision) ?? w.out[0];
    return decision.dateMs + days(5, 20);
  }
  const sent = w.last;
  return kind === 'superior' ? sent + days(...UNSEEN_APPEAL_DAYS) + days(60, 200) : sent + days(3, 25);
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
  const w = new Writer(new Rng(hash(src.seed, 721, p.index)), p.distributionMs, p.pace);
  for (const s of appellatePath(p.appeal === 'none' ? 'appeal' : p.appeal, ruling, opinion, clarified)) w.stage(s);
  return w.out;
}

/** Every step of lawsuit p's life, oldest first, whatever the time. */
export function lifeOf(src: CaseSource, p: Plan): StepPoint[] {
  const kept = lives.get(src)?.get(p.index);
  if (kept) return kept;
  return remember(src, p.index, p.instance === 1 ? firstInstanceLife(src, p) : appellateLife(src, p));
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
