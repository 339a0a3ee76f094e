// The grammar of a case's life: which stages a procedure goes through and in what order, each stage a list of
// acts (step-texts.ts) with the chance each happens, the phase the case is in once the stage has begun and the
// days between its steps. A first instance summons, hears the defence, instructs, is judged, may go up on appeal and
// come back, becomes res judicata, is enforced when the claimant won (once the creditor asks), and is archived; an
// appellate body receives, puts on its agenda, rules and sends the records down. A defendant who never answers lets
// the case run in default; an interim decision is what an agravo attacks; an appeal is filed within its days of the
// judgment's publication. The executions and embargos a case opens live their own, shorter lives. Long silences
// belong to the stages that allow them: a suspended execution in the provisional archive, a first instance whose
// records are at the appellate court.

import type { Procedure } from './case-kinds.js';
import type { ActName } from './step-texts.js';

export type Phase = 'Inicial' | 'Aguardando execução ou julgamento' | 'Sentença' | 'Recurso' | 'Trânsito em julgado ou acordo'
  | 'Execução' | 'Execução ou cumprimento' | 'Arquivado' | 'Cancelado' | 'Reativado';

/** Days before an act: a range (scaled by the case's pace), or within the days the law gives to appeal. */
export type Gap = readonly [number, number] | 'deadline';

export interface Stage {
  phase: Phase;
  /** Acts in order, each with the chance it happens (and its own days before it, when they differ from the stage's). */
  acts: ReadonlyArray<readonly [ActName, number, Gap?]>;
  /** Days before each step of the stage (scaled by the case's pace). */
  gap: readonly [number, number];
  /** The case is over once the stage is reached (status Finalizado). */
  finished?: boolean;
  /** Routine acts (publications, petitions, lapsed deadlines) may come between the stage's acts. */
  routine?: boolean;
  /** Days the case rests, untouched, before the stage begins (the provisional archive's years). */
  restBefore?: readonly [number, number];
}

/** Days between a judgment and its publication in the official gazette. */
const PUBLISHING = [1, 12] as const;
const WAITING: Phase = 'Aguardando execução ou julgamento';
const FINAL: Phase = 'Trânsito em julgado ou acordo';

export const STAGES = {
  distribution: { phase: 'Inicial', acts: [['distributed', 1]], gap: [0, 0] },
  costs: { phase: 'Inicial', acts: [['concludedForOrder', 1], ['costsOrdered', 1], ['published', 0.5], ['deadlinePassed', 1]], gap: [3, 30] },
  cancelled: { phase: 'Cancelado', acts: [['cancelled', 1]], gap: [5, 30], finished: true },
  summons: { phase: 'Inicial', acts: [['concludedForOrder', 0.7], ['summonsOrdered', 1], ['published', 0.4], ['summonsIssued', 1]], gap: [2, 35] },
  /** A decision on an urgent request (an injunction granted or refused) or, in an execution, on a debtor's objection: what an agravo attacks. */
  injunctionGranted: { phase: 'Inicial', acts: [['concludedForDecision', 1], ['injunctionGranted', 1], ['decisionPublished', 0.7, PUBLISHING]], gap: [2, 20] },
  injunctionRefused: { phase: 'Inicial', acts: [['concludedForDecision', 1], ['injunctionRefused', 1], ['decisionPublished', 0.7, PUBLISHING]], gap: [2, 20] },
  executionDecision: { phase: 'Inicial', acts: [['concludedForDecision', 1], ['objectionRejected', 1], ['decisionPublished', 0.7, PUBLISHING]], gap: [5, 30] },
  executionSummons: { phase: 'Inicial', acts: [['concludedForOrder', 0.6], ['executionSummonsOrdered', 1], ['summonsIssued', 1]], gap: [3, 45] },
  conciliation: { phase: 'Inicial', acts: [['conciliationScheduled', 1], ['conciliationFailed', 1]], gap: [10, 60] },
  conciliationHeard: { phase: 'Inicial', acts: [['conciliationScheduled', 1]], gap: [10, 60] },
  defence: { phase: WAITING, acts: [['defence', 1], ['replyOrdered', 1], ['reply', 0.8], ['evidenceOrdered', 0.7], ['published', 0.5]], gap: [15, 80], routine: true },
  /** The defendant, summoned, never answers: the deadline lapses and the case runs in default (revelia). */
  default: { phase: WAITING, acts: [['defaultNoted', 1]], gap: [15, 45] },
  conciliationDefault: { phase: 'Inicial', acts: [['conciliationScheduled', 1], ['conciliationAbsent', 1]], gap: [10, 60] },
  labourDefault: { phase: WAITING, acts: [['firstHearingAbsent', 1]], gap: [10, 70] },
  labourSingleDefault: { phase: WAITING, acts: [['singleHearingAbsent', 1]], gap: [5, 30] },
  smallClaimsDefence: { phase: WAITING, acts: [['defence', 1], ['replyOrdered', 0.7], ['petition', 0.4]], gap: [5, 40] },
  socialDefence: { phase: WAITING, acts: [['defence', 1], ['petition', 0.4]], gap: [15, 90], routine: true },
  /** Incapacity is judged: a medical expert examines the claimant before the INSS answers. */
  socialIncapacityDefence: { phase: WAITING, acts: [['medicalExamOrdered', 1], ['medicalReport', 1], ['defence', 1], ['petition', 0.4]], gap: [15, 90], routine: true },
  instruction: { phase: WAITING, acts: [['expertReport', 0.3], ['hearingScheduled', 1], ['hearingHeld', 1], ['closingArguments', 0.8]], gap: [20, 110], routine: true },
  labourNotice: { phase: 'Inicial', acts: [['summonsIssued', 1]], gap: [1, 10] },
  labourFirstHearing: { phase: WAITING, acts: [['firstHearing', 1], ['defence', 1], ['reply', 0.6]], gap: [10, 70] },
  labourSingleHearing: { phase: WAITING, acts: [['defence', 1], ['singleHearing', 1]], gap: [5, 30] },
  expert: { phase: WAITING, acts: [['expertReport', 1], ['petition', 0.5]], gap: [30, 120], routine: true },
  /** A work accident: the expert is a physician who examines the worker. */
  medicalExpert: { phase: WAITING, acts: [['medicalExamOrdered', 1], ['medicalReport', 1], ['petition', 0.5]], gap: [30, 120], routine: true },
  labourInstruction: { phase: WAITING, acts: [['hearingScheduled', 0.7], ['hearingHeld', 1], ['closingArguments', 0.8]], gap: [20, 120], routine: true },
  criminalOpening: { phase: 'Inicial', acts: [['concludedForDecision', 1], ['summonsOrdered', 1], ['summonsIssued', 1]], gap: [3, 40] },
  criminalDefence: { phase: WAITING, acts: [['criminalDefence', 1], ['hearingScheduled', 1], ['hearingHeld', 1], ['closingArguments', 1]], gap: [15, 100], routine: true },
  /** The drug law's rite (Law 11.343/2006, arts. 55-57): a prior defence before the accusation is received, then one hearing. */
  drugOpening: {
    phase: 'Inicial',
    acts: [['priorDefenceOrdered', 1], ['noticeIssued', 1], ['priorDefence', 1], ['concludedForDecision', 1], ['drugAccusationReceived', 1], ['summonsIssued', 1]], gap: [3, 30],
  },
  drugInstruction: { phase: WAITING, acts: [['hearingHeld', 1], ['closingArguments', 1]], gap: [20, 90], routine: true },
  electoralOpening: { phase: 'Inicial', acts: [['summonsOrdered', 1], ['summonsIssued', 1]], gap: [1, 5] },
  electoralDefence: { phase: WAITING, acts: [['defence', 1]], gap: [2, 6] },
  conclusion: { phase: WAITING, acts: [['concludedForJudgment', 1]], gap: [5, 60] },
  granted: { phase: 'Sentença', acts: [['granted', 1], ['judgmentPublished', 0.6, PUBLISHING]], gap: [20, 150] },
  partlyGranted: { phase: 'Sentença', acts: [['partlyGranted', 1], ['judgmentPublished', 0.6, PUBLISHING]], gap: [20, 150] },
  dismissed: { phase: 'Sentença', acts: [['dismissed', 1], ['judgmentPublished', 0.6, PUBLISHING]], gap: [20, 150] },
  settled: { phase: FINAL, acts: [['settled', 1]], gap: [5, 60] },
  withdrawn: { phase: 'Sentença', acts: [['withdrawn', 1]], gap: [10, 60] },
  appealUp: { phase: 'Recurso', acts: [['appealFiled', 1, 'deadline'], ['answerToAppealOrdered', 0.8], ['answerToAppeal', 0.8], ['sentUp', 1]], gap: [8, 45] },
  /** The records are at the appellate court: the appeal's own life decides how long (timeline.ts). */
  awaitingAppeal: { phase: 'Recurso', acts: [], gap: [0, 0] },
  back: { phase: 'Recurso', acts: [['cameBack', 1], ['returnNoticed', 1]], gap: [5, 30] },
  final: { phase: FINAL, acts: [['resJudicata', 1]], gap: [15, 60] },
  // The fulfilment of a judgment begins when the creditor asks for it (CPC art. 513 §1), never of the court's own motion.
  enforcement: {
    phase: 'Execução ou cumprimento',
    acts: [['enforcementPetition', 1], ['enforcementStarted', 1], ['paymentOrdered', 1], ['published', 0.5], ['accountsSearched', 0.4], ['seizureIssued', 0.3], ['paymentReleased', 1], ['enforcementEnded', 1]],
    gap: [15, 90], routine: true,
  },
  socialEnforcement: { phase: 'Execução ou cumprimento', acts: [['enforcementPetition', 1], ['enforcementStarted', 1], ['paymentReleased', 1], ['paymentReported', 1], ['enforcementEnded', 1]], gap: [20, 90] },
  criminalEnforcement: { phase: 'Execução', acts: [['paymentReleased', 1]], gap: [10, 60] },
  voluntaryPayment: { phase: FINAL, acts: [['paymentReported', 1], ['paymentReleased', 0.8]], gap: [15, 90] },
  executionRunning: { phase: 'Execução', acts: [['accountsSearched', 1], ['seizureIssued', 0.6], ['petition', 0.5], ['published', 0.4]], gap: [20, 120], routine: true },
  executionPaid: { phase: 'Execução', acts: [['paymentReported', 1]], gap: [15, 120] },
  executionSettled: { phase: FINAL, acts: [['settled', 1]], gap: [20, 120] },
  executionEnded: { phase: 'Sentença', acts: [['enforcementEnded', 1]], gap: [10, 60] },
  /** Suspended for want of assets: the provisional archive, where a case may rest for years (status stays Ativo). */
  suspension: { phase: 'Arquivado', acts: [['suspensionOrdered', 1], ['shelved', 1]], gap: [20, 120] },
  resumption: { phase: 'Execução', acts: [['unshelved', 1], ['accountsSearched', 1], ['seizureIssued', 0.7]], gap: [15, 90], restBefore: [300, 1100] },
  timeBarred: { phase: 'Sentença', acts: [['unshelved', 1], ['answerOrdered', 1], ['timeBarred', 1]], gap: [15, 90], restBefore: [1460, 1900] },
  archive: { phase: 'Arquivado', acts: [['archived', 1]], gap: [20, 120], finished: true },
  reactivation: { phase: 'Reativado', acts: [['unshelved', 1], ['petition', 1], ['concludedForOrder', 0.8], ['answerOrdered', 0.7]], gap: [15, 90] },
  // Appellate bodies.
  aboveOpening: { phase: 'Recurso', acts: [['distributedAbove', 1], ['toRapporteur', 1]], gap: [3, 40] },
  aboveOpinion: { phase: 'Recurso', acts: [['prosecutorOpinion', 1], ['toRapporteur', 1]], gap: [20, 90] },
  interlocutoryOpening: { phase: 'Recurso', acts: [['distributedAbove', 1], ['toRapporteur', 1], ['interlocutoryAdmitted', 1], ['interlocutoryAnswer', 0.8]], gap: [3, 30] },
  agenda: { phase: 'Recurso', acts: [['onAgenda', 1]], gap: [30, 200] },
  appealGranted: { phase: 'Recurso', acts: [['appealGranted', 1], ['rulingPublished', 1, PUBLISHING]], gap: [10, 40] },
  appealPartlyGranted: { phase: 'Recurso', acts: [['appealPartlyGranted', 1], ['rulingPublished', 1, PUBLISHING]], gap: [10, 40] },
  appealDismissed: { phase: 'Recurso', acts: [['appealDismissed', 1], ['rulingPublished', 1, PUBLISHING]], gap: [10, 40] },
  appealNotHeard: { phase: 'Recurso', acts: [['appealNotHeard', 1], ['rulingPublished', 1, PUBLISHING]], gap: [20, 120] },
  clarification: { phase: 'Recurso', acts: [['clarificationFiled', 1, 'deadline'], ['toRapporteur', 1], ['clarificationRejected', 1], ['rulingPublished', 0.7]], gap: [5, 60] },
  // A case opened from another, distributed by dependency: the fulfilment of its judgment, and a debtor's embargos.
  fulfilmentOpening: { phase: 'Execução ou cumprimento', acts: [['concludedForOrder', 1], ['paymentOrdered', 1], ['published', 0.6]], gap: [3, 30] },
  fulfilmentPaid: { phase: 'Execução ou cumprimento', acts: [['paymentReported', 1], ['paymentReleased', 1], ['enforcementEnded', 1]], gap: [15, 90] },
  fulfilmentSeized: { phase: 'Execução ou cumprimento', acts: [['accountsSearched', 1], ['seizureIssued', 0.7], ['paymentReleased', 1], ['enforcementEnded', 1]], gap: [20, 120], routine: true },
  embargosReceived: { phase: 'Inicial', acts: [['concludedForOrder', 1], ['embargosReceived', 1], ['published', 0.5]], gap: [3, 30] },
  embargosAnswered: { phase: WAITING, acts: [['embargosAnswer', 1], ['petition', 0.3]], gap: [10, 45], routine: true },
  aboveFinal: { phase: FINAL, acts: [['resJudicata', 1]], gap: [15, 45] },
  sentDown: { phase: 'Arquivado', acts: [['sentDown', 1]], gap: [3, 30], finished: true },
} satisfies Record<string, Stage>;

export type StageName = keyof typeof STAGES;

/** Routine acts that may fall between a stage's acts. */
export const ROUTINE: readonly ActName[] = ['published', 'petition', 'deadlinePassed', 'answerOrdered'];
export const ROUTINE_CHANCE = 0.25;

/** How a first instance ends (its judgment, or what ends it without one). */
export type Outcome = 'cancelled' | 'settled' | 'withdrawn' | 'granted' | 'partlyGranted' | 'dismissed'
  | 'paid' | 'seized' | 'shelvedPaid' | 'timeBarred';
/** How an appellate body rules. */
export type Ruling = 'appealGranted' | 'appealPartlyGranted' | 'appealDismissed' | 'appealNotHeard';

/** Outcomes by procedure, with weights (per cent); an execution ends in payment, seizure, suspension or settlement. */
export const OUTCOMES: Record<Procedure, ReadonlyArray<readonly [Outcome, number]>> = {
  ordinary: [['cancelled', 3], ['settled', 12], ['withdrawn', 4], ['granted', 33], ['partlyGranted', 25], ['dismissed', 23]],
  smallClaims: [['cancelled', 1], ['settled', 25], ['withdrawn', 3], ['granted', 30], ['partlyGranted', 20], ['dismissed', 21]],
  socialSecurity: [['settled', 8], ['granted', 40], ['partlyGranted', 12], ['dismissed', 40]],
  labour: [['settled', 35], ['withdrawn', 3], ['granted', 18], ['partlyGranted', 30], ['dismissed', 14]],
  labourSummary: [['settled', 40], ['withdrawn', 3], ['granted', 20], ['partlyGranted', 25], ['dismissed', 12]],
  criminal: [['granted', 60], ['dismissed', 40]],
  electoral: [['granted', 45], ['dismissed', 55]],
  execution: [['paid', 25], ['seized', 25], ['settled', 15], ['shelvedPaid', 15], ['timeBarred', 20]],
  taxExecution: [['paid', 30], ['seized', 20], ['settled', 10], ['shelvedPaid', 15], ['timeBarred', 25]],
};
/** Outcomes of a case whose defendant never answers (the claim is presumed true, CPC art. 344; CLT art. 844). */
export const OUTCOMES_IN_DEFAULT: Partial<Record<Procedure, ReadonlyArray<readonly [Outcome, number]>>> = {
  ordinary: [['cancelled', 3], ['granted', 70], ['partlyGranted', 27]],
  smallClaims: [['granted', 70], ['partlyGranted', 30]],
  labour: [['granted', 60], ['partlyGranted', 40]],
  labourSummary: [['granted', 60], ['partlyGranted', 40]],
};
/** How a fulfilment of judgment ends: paid, paid after a seizure, or suspended for want of assets. */
export const FULFILMENT_OUTCOMES: ReadonlyArray<readonly [Outcome, number]> = [['paid', 50], ['seized', 30], ['shelvedPaid', 20]];
/** How the debtor's embargos end: rarely for the debtor (the execution goes on). */
export const EMBARGOS_OUTCOMES: ReadonlyArray<readonly [Outcome, number]> = [['dismissed', 70], ['partlyGranted', 20], ['withdrawn', 10]];
/** Outcomes a case that is appealed can have: a judgment to attack. */
export const APPEALABLE: ReadonlySet<Outcome> = new Set(['granted', 'partlyGranted', 'dismissed', 'timeBarred']);
export const RULINGS: ReadonlyArray<readonly [Ruling, number]> = [['appealGranted', 28], ['appealPartlyGranted', 20], ['appealDismissed', 45], ['appealNotHeard', 7]];

export interface Story {
  outcome: Outcome;
  /** A settlement reached at the first hearing rather than later. */
  settlesEarly: boolean;
  /** An instruction hearing before the judgment. */
  hearing: boolean;
  /** An expert's report (labour). */
  expert: boolean;
  /** The winner enforces the judgment (else the loser pays of their own accord). */
  enforced: boolean;
  /** Archived, then taken out of the archive once. */
  reactivated: boolean;
  /** The defendant never answers (no lawyer): the case runs in default. */
  inDefault: boolean;
  /** An interim decision early on (the one an agravo attacks, when the case has one): what it decided. */
  interim?: 'granted' | 'refused' | 'execution';
  /** Incapacity is judged: a medical expert examines the claimant (social security). */
  medical: boolean;
  /** The crime keeps its own law's rite (drug trafficking). */
  drugRite: boolean;
  /** The judgment is enforced in a case of its own, opened by the creditor (plan.ts: execution). */
  enforcedApart: boolean;
}

const JUDGMENT_STAGE: Partial<Record<Outcome, StageName>> = { granted: 'granted', partlyGranted: 'partlyGranted', dismissed: 'dismissed', settled: 'settled', withdrawn: 'withdrawn' };

const INTERIM: Record<NonNullable<Story['interim']>, StageName> = { granted: 'injunctionGranted', refused: 'injunctionRefused', execution: 'executionDecision' };

/** Up to the judgment: how the case is heard, by procedure (and whether the defendant answers). */
function hearingOf(procedure: Procedure, s: Story): StageName[] {
  const early = s.outcome === 'settled' && s.settlesEarly;
  if (s.inDefault) {
    switch (procedure) {
      case 'smallClaims': return ['conciliationDefault', 'conclusion'];
      case 'labour': return ['labourNotice', 'labourDefault', 'conclusion'];
      case 'labourSummary': return ['labourNotice', 'labourSingleDefault', 'conclusion'];
      default: return ['summons', 'default', 'conclusion'];
    }
  }
  switch (procedure) {
    case 'ordinary': return early ? ['summons'] : ['summons', 'defence', ...(s.hearing ? ['instruction' as const] : []), 'conclusion'];
    case 'smallClaims': return early ? ['conciliationHeard'] : ['conciliation', 'smallClaimsDefence', 'conclusion'];
    case 'socialSecurity': return ['summons', s.medical ? 'socialIncapacityDefence' : 'socialDefence', 'conclusion'];
    case 'labour': return early ? ['labourNotice']
      : ['labourNotice', 'labourFirstHearing', ...(s.medical ? ['medicalExpert' as const] : s.expert ? ['expert' as const] : []), 'labourInstruction', 'conclusion'];
    case 'labourSummary': return early ? ['labourNotice'] : ['labourNotice', 'labourSingleHearing', 'conclusion'];
    case 'criminal': return s.drugRite ? ['drugOpening', 'drugInstruction', 'conclusion'] : ['criminalOpening', 'criminalDefence', 'conclusion'];
    case 'electoral': return ['electoralOpening', 'electoralDefence', 'conclusion'];
    default: return [];
  }
}

/** How a won judgment is carried out, by procedure (nothing here when it is carried out in a case of its own). */
function enforcementOf(procedure: Procedure, s: Story, won: boolean): StageName[] {
  if (!won || procedure === 'electoral' || s.enforcedApart) return [];
  if (procedure === 'criminal') return ['criminalEnforcement'];
  if (procedure === 'socialSecurity') return ['socialEnforcement'];
  return s.enforced ? ['enforcement'] : ['voluntaryPayment'];
}

/**
 * A first instance's stages: `head` up to the records going up (`awaitingAppeal`, where the appeal's own life
 * runs), or the whole life when it is not appealed; `tail(won)` once the appeal has ruled, `won` saying whether the
 * claimant ends up with a title to enforce.
 */
export function firstInstancePath(procedure: Procedure, s: Story, appealed: boolean): { head: StageName[]; tail: (won: boolean) => StageName[] } {
  const closing = (): StageName[] => (s.reactivated ? ['archive', 'reactivation', 'archive'] : ['archive']);
  const interim: StageName[] = s.interim ? [INTERIM[s.interim]] : [];
  if (s.outcome === 'cancelled') return { head: ['distribution', 'costs', 'cancelled'], tail: () => [] };
  if (procedure === 'execution' || procedure === 'taxExecution') {
    const head: StageName[] = ['distribution', 'executionSummons', ...interim];
    switch (s.outcome) {
      case 'paid': return { head: [...head, 'executionPaid', 'executionEnded', 'final', ...closing()], tail: () => [] };
      case 'seized': return { head: [...head, 'executionRunning', 'executionPaid', 'executionEnded', 'final', ...closing()], tail: () => [] };
      case 'settled': return { head: [...head, 'executionRunning', 'executionSettled', 'final', ...closing()], tail: () => [] };
      case 'shelvedPaid': return { head: [...head, 'executionRunning', 'suspension', 'resumption', 'executionPaid', 'executionEnded', 'final', ...closing()], tail: () => [] };
      default: return appealed
        ? { head: [...head, 'executionRunning', 'suspension', 'timeBarred', 'appealUp', 'awaitingAppeal'], tail: () => ['back', 'final', ...closing()] }
        : { head: [...head, 'executionRunning', 'suspension', 'timeBarred', 'final', ...closing()], tail: () => [] };
    }
  }
  const judged: StageName[] = ['distribution', ...interim, ...hearingOf(procedure, s), JUDGMENT_STAGE[s.outcome]!];
  const after = (won: boolean): StageName[] => ['final', ...enforcementOf(procedure, s, won), ...closing()];
  const wonHere = s.outcome === 'granted' || s.outcome === 'partlyGranted';
  if (appealed) return { head: [...judged, 'appealUp', 'awaitingAppeal'], tail: (won) => ['back', ...after(won)] };
  if (s.outcome === 'settled' || s.outcome === 'withdrawn') return { head: [...judged, 'final', ...closing()], tail: () => [] };
  return { head: [...judged, ...after(wonHere)], tail: () => [] };
}

/** The life of a case opened from another by dependency: the fulfilment of its judgment, or the debtor's embargos. */
export function dependentPath(kind: 'execution' | 'dependency', outcome: Outcome): StageName[] {
  if (kind === 'dependency') {
    return ['distribution', 'embargosReceived', 'embargosAnswered', 'conclusion', JUDGMENT_STAGE[outcome]!, 'final', 'archive'];
  }
  switch (outcome) {
    case 'paid': return ['distribution', 'fulfilmentOpening', 'fulfilmentPaid', 'archive'];
    case 'seized': return ['distribution', 'fulfilmentOpening', 'fulfilmentSeized', 'archive'];
    default: return ['distribution', 'fulfilmentOpening', 'executionRunning', 'suspension'];
  }
}

/** An appellate body's stages: an appeal, an interlocutory appeal or a superior court's case. */
export function appellatePath(kind: 'appeal' | 'interlocutory' | 'superior', ruling: Ruling, opinion: boolean, clarified: boolean): StageName[] {
  const opening: StageName[] = kind === 'interlocutory' ? ['interlocutoryOpening'] : ['aboveOpening', ...(opinion ? ['aboveOpinion' as const] : [])];
  // A superior court's rapporteur refuses an inadmissible appeal alone, off the agenda.
  const agenda: StageName[] = kind === 'superior' && ruling === 'appealNotHeard' ? [] : ['agenda'];
  return [...opening, ...agenda, ruling, ...(clarified ? ['clarification' as const] : []), 'aboveFinal', 'sentDown'];
}

/** Whether the claimant holds a title once the appeal has ruled on the first instance's outcome. */
export function claimantWins(outcome: Outcome, ruling: Ruling): boolean {
  if (outcome === 'dismissed') return ruling === 'appealGranted' || ruling === 'appealPartlyGranted';
  if (outcome === 'granted' || outcome === 'partlyGranted') return ruling !== 'appealGranted';
  return false;
}
