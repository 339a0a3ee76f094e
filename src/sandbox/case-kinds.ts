// Kinds of case, each coherent the way real ones are: a justice branch, the classes it is filed under, the
// appeal it gets, the subjects it is about and who brings it against whom. A labour claim is an employee against
// an employer about labour rights; a tax enforcement is a public entity against a taxpayer about a tax; a
// criminal action is the Ministério Público against a defendant. A rite has its value ceiling in minimum wages (a
// labour claim up to 40 is sumaríssimo; a social-security claim above 60 leaves the JEF), and subjects follow the
// counterpart's business. A criminal case is about one crime, tried under that crime's rite; a social-security claim
// about one benefit, with a medical examination where incapacity is judged. The tests hold the universe to these rules.

import type { Sector } from './company-names.js';
import { CPC_2015, CPP_REFORM } from './laws.js';
import type { CaseGroup } from './tribunals.js';

/** Who stands on one side: an individual or a company (with the share of companies, and of those, of big litigants). */
interface PrivateSide { company: number; big: number }
/** The side is the case's public entity (see public-entities.ts). */
export type Side = PrivateSide | 'entity';

/**
 * What a case is about, when its subjects come together (a crime and its rite; a benefit and whether incapacity is
 * judged): one topic is drawn per case instead of loose subjects.
 */
export interface Topic {
  subjects: string[];
  weight: number;
  /** The class the topic is tried under, by the law in force at distribution (newest last): [from ms, class]. */
  classes?: ReadonlyArray<readonly [number, string]>;
  /** The law keeps these cases secret (domestic violence). */
  secret?: boolean;
  /** Incapacity is judged: a medical expert examines the claimant. */
  medical?: boolean;
  /** Only a woman claims it (maternity pay). */
  woman?: boolean;
}


const crime = (subjects: string[], weight: number, classes: ReadonlyArray<readonly [number, string]>, secret = false): Topic => ({ subjects, weight, classes, ...(secret ? { secret } : {}) });
/** The ordinary rite: crimes punished with four years or more (CPP art. 394). */
const ORDINARY_RITE = [[0, '283']] as const;
/** Drug trafficking keeps the rite of its own law (Law 11.343/2006, arts. 54-59). */
const DRUG_LAW_RITE = [[0, '300']] as const;
/** Domestic violence is never a small-offence case (Law 11.340/2006, art. 41): the summary rite, the older "Processo Sumário" before 2008's reform. */
const SUMMARY_RITE = [[0, '290'], [CPP_REFORM, '10943']] as const;

/** How the case runs (procedure.ts): the stages and their order. */
export type Procedure = 'ordinary' | 'smallClaims' | 'socialSecurity' | 'labour' | 'labourSummary' | 'execution' | 'taxExecution' | 'criminal' | 'electoral';

export interface CaseKind {
  name: string;
  justice: '8' | '5' | '4' | '6' | '9';
  group: CaseGroup;
  area: string;
  procedure: Procedure;
  /** First-instance classes (TPU codes), one drawn per case (a topic's rite decides it where the kind has topics). */
  classes: string[];
  /** Class of the appeal heard under the same number at the second instance; absent: no appeal is filed. */
  appealClass?: string;
  /** Whether interlocutory appeals (Agravo de Instrumento, 202) are filed, under a number of their own. */
  interlocutoryAppeals: boolean;
  /** The superior court a second-instance judgment may be taken to, and the class it is heard under there. */
  superior?: { court: 'STJ' | 'TST'; class: string };
  /** Subjects (TPU codes) of this kind; a case gets one to three of them (or those of its topic). */
  subjects: string[];
  /** What a case of this kind is about, when its subjects come together: one topic per case. */
  topics?: Topic[];
  /**
   * The cases a case of this kind opens under a number of its own at its unit, distributed by dependency: the
   * execution of its judgment (where the court keeps it apart: e-SAJ), the debtor's embargos against an execution.
   */
  children?: { execution?: ReadonlyArray<readonly [number, string]>; dependency?: string };
  /** Subjects by the counterpart's business (company-names.ts), drawn instead of `subjects` when it has a list. */
  subjectsBySector?: Partial<Record<Sector, string[]>>;
  active: Side;
  passive: Side;
  /** Case value, log10 of BRL (uniform between the two); absent: no value (criminal cases). */
  amountLog10?: [number, number];
  /**
   * The rite's value ceiling in minimum wages at filing: a claim up to it is filed as `within`, above it as
   * `above` (labour: sumaríssimo up to 40; federal: the JEF up to 60). Without `above` the claim is kept under it.
   */
  ceiling?: { wages: number; within?: string; above?: string };
}

const IND: PrivateSide = { company: 0, big: 0 };

const CONSUMER_GENERIC = ['7779', '7780', '7768', '11974', '6226', '7781'];

export const KINDS = {
  consumer: {
    name: 'consumer', justice: '8', group: 'smallClaims', area: 'Cível', procedure: 'smallClaims', classes: ['436'], appealClass: '460', interlocutoryAppeals: false,
    subjects: CONSUMER_GENERIC,
    subjectsBySector: {
      bank: ['7752', '7772', '11806', '6226', '7779', '11974'], telecom: ['7617', '6226', '7779', '11974'], energy: ['7760', '7779', '7780'],
      water: ['7761', '7779', '7780'], airline: ['4829', '4832', '7779', '7780'], insurer: ['6233', '7779', '11974', '7768'],
    },
    active: IND, passive: { company: 1, big: 0.7 }, amountLog10: [3.3, 4.7], ceiling: { wages: 40 },
  },
  civil: {
    name: 'civil', justice: '8', group: 'civil', area: 'Cível', procedure: 'ordinary', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    superior: { court: 'STJ', class: '1032' },
    subjects: ['10433', '10439', '10441', '7698', '7691', '9587', '9596', '10671'], children: { execution: [[0, '156']] },
    subjectsBySector: { bank: ['9607', '10433', '7698', '10671'], transport: ['10441', '10439', '10433'], construction: ['9587', '7691', '10671', '10439'] },
    active: { company: 0.35, big: 0.2 }, passive: { company: 0.6, big: 0.35 }, amountLog10: [3.7, 6.3],
  },
  lease: {
    name: 'lease', justice: '8', group: 'civil', area: 'Cível', procedure: 'ordinary', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    superior: { court: 'STJ', class: '1032' },
    subjects: ['11000', '9612', '10467'], children: { execution: [[0, '156']] }, active: { company: 0.3, big: 0 }, passive: { company: 0.15, big: 0 }, amountLog10: [3.3, 5],
  },
  titleExecution: {
    name: 'titleExecution', justice: '8', group: 'civil', area: 'Cível', procedure: 'execution', classes: ['159'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['4970', '4980', '4972'], children: { dependency: '172' }, subjectsBySector: { bank: ['4960', '4970', '4980'] },
    active: { company: 1, big: 0.6 }, passive: { company: 0.4, big: 0 }, amountLog10: [3.5, 6],
  },
  alimony: {
    name: 'alimony', justice: '8', group: 'family', area: 'Cível', procedure: 'ordinary', classes: ['69'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['5779', '6239', '5788'], active: IND, passive: IND, amountLog10: [3, 4.5],
  },
  municipalTax: {
    name: 'municipalTax', justice: '8', group: 'tax', area: 'Cível', procedure: 'taxExecution', classes: ['1116'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['5952', '5951', '10536', '6017'], children: { dependency: '1118' }, active: 'entity', passive: { company: 0.45, big: 0.2 }, amountLog10: [2.7, 5.5],
  },
  stateTax: {
    name: 'stateTax', justice: '8', group: 'tax', area: 'Cível', procedure: 'taxExecution', classes: ['1116'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['5946', '5953', '6017'], children: { dependency: '1118' }, active: 'entity', passive: { company: 0.7, big: 0.3 }, amountLog10: [3.5, 7],
  },
  stateFazenda: {
    name: 'stateFazenda', justice: '8', group: 'publicLaw', area: 'Cível', procedure: 'ordinary', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    superior: { court: 'STJ', class: '1032' },
    subjects: ['11884', '10069', '9992'], children: { execution: [[0, '1114'], [CPC_2015, '12078']] }, active: { company: 0.1, big: 0 }, passive: 'entity', amountLog10: [3.5, 6],
  },
  stateCriminal: {
    name: 'stateCriminal', justice: '8', group: 'criminal', area: 'Criminal', procedure: 'criminal', classes: ['283', '300', '10943', '290'], appealClass: '417', interlocutoryAppeals: false,
    subjects: ['3416', '3417', '3419', '5566', '3431', '3435', '3608', '3385', '3402', '10949'], active: 'entity', passive: IND,
    topics: [
      crime(['3416'], 25, ORDINARY_RITE), crime(['3417'], 15, ORDINARY_RITE), crime(['3419'], 15, ORDINARY_RITE), crime(['5566'], 10, ORDINARY_RITE),
      crime(['3431'], 8, ORDINARY_RITE), crime(['3435'], 7, ORDINARY_RITE), crime(['3608'], 15, DRUG_LAW_RITE),
      crime(['10949', '3385'], 6, SUMMARY_RITE, true), crime(['10949', '3402'], 4, SUMMARY_RITE, true),
    ],
  },
  labour: {
    name: 'labour', justice: '5', group: 'labour', area: 'Trabalhista', procedure: 'labour', classes: ['985'], appealClass: '1009', interlocutoryAppeals: false,
    superior: { court: 'TST', class: '1008' },
    subjects: ['2546', '2641', '1998', '2212', '2210', '8821', '8820', '8823', '2435', '1904', '1907', '2666', '2117', '1681', '2458', '2697', '2540', '2021', '1855', '1723', '2569', '8808', '2704'],
    active: IND, passive: { company: 0.95, big: 0.3 }, amountLog10: [3.7, 5.7], ceiling: { wages: 40, within: 'labourSummary' },
  },
  labourSummary: {
    name: 'labourSummary', justice: '5', group: 'labour', area: 'Trabalhista', procedure: 'labourSummary', classes: ['1125'], appealClass: '1009', interlocutoryAppeals: false,
    subjects: ['2546', '2641', '1998', '2212', '2210', '8821', '8820', '8823', '1904', '2666', '2540', '2021', '1855'],
    active: IND, passive: { company: 0.95, big: 0.3 }, amountLog10: [3.7, 5.7],
  },
  socialSecurity: {
    name: 'socialSecurity', justice: '4', group: 'federalSmallClaims', area: 'Cível', procedure: 'socialSecurity', classes: ['436'], appealClass: '460', interlocutoryAppeals: false,
    subjects: ['6095', '6101', '6096', '6118', '6100', '6114', '6104', '6103'], active: IND, passive: 'entity', amountLog10: [3.5, 5.2],
    topics: [
      { subjects: ['6101'], weight: 22, medical: true }, { subjects: ['6101', '6095'], weight: 10, medical: true }, { subjects: ['6095'], weight: 8, medical: true },
      { subjects: ['6114'], weight: 10, medical: true }, { subjects: ['6096'], weight: 15 }, { subjects: ['6118'], weight: 10 }, { subjects: ['6100'], weight: 5 },
      { subjects: ['6104'], weight: 10 }, { subjects: ['6103'], weight: 10, woman: true },
    ],
    ceiling: { wages: 60, above: 'socialSecurityOrdinary' },
  },
  socialSecurityOrdinary: {
    name: 'socialSecurityOrdinary', justice: '4', group: 'socialSecurity', area: 'Cível', procedure: 'socialSecurity', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['6095', '6096', '6118', '6100', '6104'], active: IND, passive: 'entity', amountLog10: [3.5, 5.2],
    topics: [
      { subjects: ['6095'], weight: 30, medical: true }, { subjects: ['6096'], weight: 20 }, { subjects: ['6118'], weight: 25 }, { subjects: ['6100'], weight: 15 },
      { subjects: ['6104'], weight: 10 },
    ],
  },
  federalTax: {
    name: 'federalTax', justice: '4', group: 'tax', area: 'Cível', procedure: 'taxExecution', classes: ['1116'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['5933', '6035', '6039', '6060', '5917', '6017'], children: { dependency: '1118' }, active: 'entity', passive: { company: 0.8, big: 0.3 }, amountLog10: [4, 7.5],
  },
  federalCivil: {
    name: 'federalCivil', justice: '4', group: 'publicLaw', area: 'Cível', procedure: 'ordinary', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    superior: { court: 'STJ', class: '1032' },
    subjects: ['9992', '11884'], subjectsBySector: { bank: ['9607', '4842', '10433'] }, active: { company: 0.2, big: 0 }, passive: 'entity', amountLog10: [3.5, 6],
  },
  federalCriminal: {
    name: 'federalCriminal', justice: '4', group: 'criminal', area: 'Criminal', procedure: 'criminal', classes: ['283', '300'], appealClass: '417', interlocutoryAppeals: false,
    subjects: ['3574', '3432', '3614', '3539', '3608'], active: 'entity', passive: IND,
    topics: [
      crime(['3574'], 30, ORDINARY_RITE), crime(['3614'], 20, ORDINARY_RITE), crime(['3539'], 15, ORDINARY_RITE), crime(['3432'], 20, ORDINARY_RITE),
      crime(['3608'], 15, DRUG_LAW_RITE),
    ],
  },
  electoral: {
    name: 'electoral', justice: '6', group: 'electoral', area: 'Eleitoral', procedure: 'electoral', classes: ['11541'], interlocutoryAppeals: false,
    subjects: ['11667', '11679', '12635'], active: 'entity', passive: IND,
  },
  stateMilitary: {
    name: 'stateMilitary', justice: '9', group: 'military', area: 'Criminal', procedure: 'criminal', classes: ['11037'], appealClass: '417', interlocutoryAppeals: false,
    subjects: ['11353'], active: 'entity', passive: IND, topics: [crime(['11353'], 1, [[0, '11037']])],
  },
} satisfies Record<string, CaseKind>;


/** Cases between private parties, by justice branch, with their weights. */
export const PRIVATE_KINDS: Record<'8' | '5', Array<[CaseKind, number]>> = {
  '8': [[KINDS.consumer, 32], [KINDS.civil, 26], [KINDS.lease, 9], [KINDS.titleExecution, 13], [KINDS.alimony, 6]],
  '5': [[KINDS.labour, 1]],
};
