// Kinds of case, each coherent the way real ones are: a justice branch, the classes it is filed under, the
// appeal it gets, the subjects it is about and who brings it against whom. A labour claim is an employee against
// an employer about labour rights; a tax enforcement is a public entity against a taxpayer about a tax; a
// criminal action is the Ministério Público against a defendant. The tests hold the universe to these rules.

import type { CaseGroup } from './tribunals.js';

/** Who stands on one side: an individual or a company (with the share of companies, and of those, of big litigants). */
export interface PrivateSide { company: number; big: number }
/** The side is the case's public entity (see public-entities.ts). */
export type Side = PrivateSide | 'entity';

export interface CaseKind {
  name: string;
  justice: '8' | '5' | '4';
  group: CaseGroup;
  area: string;
  /** First-instance classes (TPU codes), one drawn per case. */
  classes: string[];
  /** Class of the appeal heard under the same number at the second instance. */
  appealClass: string;
  /** Whether interlocutory appeals (Agravo de Instrumento, 202) are filed, under a number of their own. */
  interlocutoryAppeals: boolean;
  /** Subjects (TPU codes) of this kind; a case gets one to three of them. */
  subjects: string[];
  active: Side;
  passive: Side;
  /** Case value, log10 of BRL (uniform between the two); absent: no value (criminal cases). */
  amountLog10?: [number, number];
}

const IND: PrivateSide = { company: 0, big: 0 };

export const KINDS = {
  consumer: {
    name: 'consumer', justice: '8', group: 'smallClaims', area: 'Cível', classes: ['436'], appealClass: '460', interlocutoryAppeals: false,
    subjects: ['7779', '7780', '6226', '7781', '7768', '7617', '7760', '7761', '6233', '7752', '7772', '11806', '4829', '4832', '11974'],
    active: IND, passive: { company: 1, big: 0.7 }, amountLog10: [3.3, 4.7],
  },
  civil: {
    name: 'civil', justice: '8', group: 'civil', area: 'Cível', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['10433', '10439', '10441', '7698', '7691', '9587', '9596', '10671'],
    active: { company: 0.35, big: 0.2 }, passive: { company: 0.6, big: 0.35 }, amountLog10: [3.7, 6.3],
  },
  lease: {
    name: 'lease', justice: '8', group: 'civil', area: 'Cível', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['11000', '9612', '10467'], active: { company: 0.3, big: 0 }, passive: { company: 0.15, big: 0 }, amountLog10: [3.3, 5],
  },
  titleExecution: {
    name: 'titleExecution', justice: '8', group: 'civil', area: 'Cível', classes: ['159'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['4970', '4980', '4972', '4960', '9607'], active: { company: 1, big: 0.6 }, passive: { company: 0.4, big: 0 }, amountLog10: [3.5, 6],
  },
  alimony: {
    name: 'alimony', justice: '8', group: 'family', area: 'Cível', classes: ['69'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['5779', '6239', '5788'], active: IND, passive: IND, amountLog10: [3, 4.5],
  },
  municipalTax: {
    name: 'municipalTax', justice: '8', group: 'tax', area: 'Cível', classes: ['1116'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['5952', '5951', '10536', '6017'], active: 'entity', passive: { company: 0.45, big: 0.2 }, amountLog10: [2.7, 5.5],
  },
  stateTax: {
    name: 'stateTax', justice: '8', group: 'tax', area: 'Cível', classes: ['1116'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['5946', '5953', '6017'], active: 'entity', passive: { company: 0.7, big: 0.3 }, amountLog10: [3.5, 7],
  },
  stateFazenda: {
    name: 'stateFazenda', justice: '8', group: 'publicLaw', area: 'Cível', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['11884', '10069', '9992'], active: { company: 0.1, big: 0 }, passive: 'entity', amountLog10: [3.5, 6],
  },
  stateCriminal: {
    name: 'stateCriminal', justice: '8', group: 'criminal', area: 'Criminal', classes: ['283', '10943'], appealClass: '417', interlocutoryAppeals: false,
    subjects: ['3416', '3417', '3419', '5566', '3431', '3435', '3608', '3385', '3402', '10949'], active: 'entity', passive: IND,
  },
  labour: {
    name: 'labour', justice: '5', group: 'labour', area: 'Trabalhista', classes: ['985', '1125'], appealClass: '1009', interlocutoryAppeals: false,
    subjects: ['2546', '2641', '1998', '2212', '2210', '8821', '8820', '8823', '2435', '1904', '1907', '2666', '2117', '1681', '2458', '2697', '2540', '2021', '1855', '1723', '2569', '8808', '2704'],
    active: IND, passive: { company: 0.95, big: 0.3 }, amountLog10: [3.7, 5.7],
  },
  socialSecurity: {
    name: 'socialSecurity', justice: '4', group: 'socialSecurity', area: 'Cível', classes: ['436'], appealClass: '460', interlocutoryAppeals: false,
    subjects: ['6095', '6101', '6096', '6118', '6100', '6114', '6104', '6103'], active: IND, passive: 'entity', amountLog10: [3.5, 5],
  },
  federalTax: {
    name: 'federalTax', justice: '4', group: 'tax', area: 'Cível', classes: ['1116'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['5933', '6035', '6039', '6060', '5917', '6017'], active: 'entity', passive: { company: 0.8, big: 0.3 }, amountLog10: [4, 7.5],
  },
  federalCivil: {
    name: 'federalCivil', justice: '4', group: 'publicLaw', area: 'Cível', classes: ['7'], appealClass: '198', interlocutoryAppeals: true,
    subjects: ['9992', '11884', '4842', '9607'], active: { company: 0.2, big: 0 }, passive: 'entity', amountLog10: [3.5, 6],
  },
  federalCriminal: {
    name: 'federalCriminal', justice: '4', group: 'criminal', area: 'Criminal', classes: ['283'], appealClass: '417', interlocutoryAppeals: false,
    subjects: ['3574', '3432', '3614', '3539', '3608'], active: 'entity', passive: IND,
  },
} satisfies Record<string, CaseKind>;

export type KindName = keyof typeof KINDS;

/** Cases between private parties, by justice branch, with their weights. */
export const PRIVATE_KINDS: Record<'8' | '5', Array<[CaseKind, number]>> = {
  '8': [[KINDS.consumer, 32], [KINDS.civil, 26], [KINDS.lease, 9], [KINDS.titleExecution, 13], [KINDS.alimony, 6]],
  '5': [[KINDS.labour, 1]],
};
