// The law in force, as far as the universe's steps cite or obey it: when a code or a reform came into force, and
// the days a party has to appeal. A step written before a law cites the one it replaced (step-texts.ts); an appeal
// is filed within its days of the decision's publication (timeline.ts).

/** The 2015 Code of Civil Procedure (Law 13.105/2015, art. 1.045): in force from 18 March 2016. */
export const CPC_2015 = Date.UTC(2016, 2, 18, 3);
/** The criminal procedure reform (Law 11.719/2008): the summary rite and the "resposta à acusação", from 22 August 2008. */
export const CPP_REFORM = Date.UTC(2008, 7, 22, 3);

/** The kinds of appeal whose deadline the universe keeps. */
export type AppealRoute = 'appeal' | 'criminalAppeal' | 'smallClaimsAppeal' | 'labourAppeal' | 'interlocutory' | 'clarification' | 'criminalClarification';

/**
 * Days to appeal, counted from the decision's publication: an apelação 15 (CPC art. 1.003 §5; 15 under the 1973
 * code too), a criminal apelação 5 (CPP art. 593), a recurso inominado 10 (Law 9.099/95 art. 42), a recurso
 * ordinário 8 (CLT art. 895), an agravo de instrumento 15 (10 before the 2015 code, CPC/1973 art. 522), embargos de
 * declaração 5 (2 in criminal cases, CPP art. 382).
 */
export function appealDays(route: AppealRoute, ms: number): number {
  switch (route) {
    case 'appeal': return 15;
    case 'criminalAppeal': return 5;
    case 'smallClaimsAppeal': return 10;
    case 'labourAppeal': return 8;
    case 'interlocutory': return ms >= CPC_2015 ? 15 : 10;
    case 'clarification': return 5;
    case 'criminalClarification': return 2;
  }
}
