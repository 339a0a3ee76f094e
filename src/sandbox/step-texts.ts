// The acts a court registers, each a movement of the CNJ's table (its TPU code is the step's step_type) with the
// words the register uses for it, by kind of case and instance: a first instance summons and hears, an appellate
// body receives, puts on its agenda and rules; a labour court notifies the "reclamada", a criminal court receives
// the denúncia. A step cites the law in force on its date (the 1973 code's articles before 18 March 2016, the
// 2015 code's after; the "resposta à acusação" only from 2008's reform). procedure.ts orders the acts; this file only
// says how each is written.

import { CPC_2015, CPP_REFORM } from './laws.js';
import { tpuMovement } from './tpu.js';
import type { CaseGroup } from './tribunals.js';

export interface StepTextContext {
  group: CaseGroup;
  instance: number;
  /** The court the case runs in. */
  court: string;
  /** Where the appeal goes, with its preposition ("ao TJSP", "à Turma Recursal"). */
  toAbove: string;
  /** Where it comes back from ("do TJSP", "da Turma Recursal"). */
  fromAbove: string;
  /** The appeal's name ("apelação", "recurso inominado", "recurso ordinário"). */
  appealName: string;
  /** The defendant has a lawyer (one who has none files nothing). */
  defendantRepresented: boolean;
  /** The number of the case this one was distributed by dependency on. */
  dependentOn?: string;
  /** The case is a debtor's embargos. */
  embargos: boolean;
  /** The debtor is a public body (paid by requisition, and answers a fulfilment in 30 days). */
  fazenda: boolean;
}

export interface Act {
  /** TPU movement code. */
  code: string;
  /** The act's wordings, for a case in context `c` on date `ms`. */
  texts: (c: StepTextContext, ms: number) => string[];
}

const fixed = (...texts: string[]) => () => texts;
/** Wordings before and after a law came into force. */
const byLaw = (from: number, before: string[], after: string[]) => (_c: StepTextContext, ms: number) => (ms < from ? before : after);
const isLabour = (c: StepTextContext) => c.group === 'labour';
const isCriminal = (c: StepTextContext) => c.group === 'criminal' || c.group === 'military';
const isSocial = (c: StepTextContext) => c.group === 'socialSecurity' || c.group === 'federalSmallClaims';

export const ACTS = {
  // Beginning, first instance.
  distributed: { code: '26', texts: (c) => [c.dependentOn ? `Distribuído por dependência ao processo ${c.dependentOn}.` : `Distribuído por sorteio para ${c.court}.`] },
  concludedForOrder: { code: '51', texts: fixed('Conclusos para despacho.') },
  concludedForDecision: { code: '51', texts: fixed('Conclusos para decisão.') },
  concludedForJudgment: { code: '51', texts: fixed('Conclusos para julgamento.', 'Conclusos para sentença.') },
  summonsOrdered: {
    code: '11010', texts: (c, ms) => (isCriminal(c) ? [ms < CPP_REFORM ? 'Despacho: recebida a denúncia, cite-se o réu e designe-se interrogatório.' : 'Despacho: recebida a denúncia, cite-se o acusado para resposta à acusação.']
      : c.group === 'electoral' ? ['Despacho: notifique-se o representado para apresentar defesa em 48 horas.']
        : isSocial(c) ? ['Despacho: cite-se o INSS.'] : ['Despacho: cite-se a parte ré.', 'Despacho: cite-se e intime-se a parte ré para contestar.']),
  },
  executionSummonsOrdered: {
    code: '11010', texts: (c) => (c.group === 'tax' ? ['Despacho: cite-se o executado para pagar ou garantir a execução em 5 dias.'] : ['Despacho: cite-se o executado para pagar em 3 dias.']),
  },
  summonsIssued: {
    code: '60', texts: (c) => (isCriminal(c) ? ['Expedido mandado de citação do réu.']
      : isLabour(c) ? ['Expedida notificação inicial à reclamada.']
        : c.group === 'electoral' ? ['Expedida notificação ao representado.']
          : isSocial(c) ? ['Expedida citação eletrônica do INSS.']
            : c.group === 'tax' ? ['Expedida carta de citação do executado.'] : ['Expedida carta de citação.', 'Expedido mandado de citação.']),
  },
  costsOrdered: { code: '11010', texts: fixed('Despacho: recolha a parte autora as custas iniciais em 15 dias, sob pena de cancelamento da distribuição.') },
  conciliationScheduled: { code: '970', texts: fixed('Audiência de conciliação designada.') },
  conciliationFailed: { code: '970', texts: fixed('Audiência de conciliação realizada, sem acordo.') },
  firstHearing: { code: '970', texts: fixed('Audiência inicial realizada: conciliação recusada.') },
  singleHearing: { code: '970', texts: fixed('Audiência una realizada: conciliação recusada.') },
  defence: {
    code: '85', texts: (c) => (isLabour(c) ? ['Juntada de contestação da reclamada.'] : isSocial(c) ? ['Juntada de contestação do INSS.']
      : c.group === 'electoral' ? ['Juntada de defesa do representado.'] : ['Juntada de contestação.']),
  },
  replyOrdered: {
    code: '11383', texts: (c) => (c.group === 'smallClaims' ? ['Ato ordinatório: intime-se a parte autora para manifestação sobre a contestação.']
      : ['Ato ordinatório praticado: intime-se a parte autora para réplica.']),
  },
  reply: { code: '85', texts: (c) => (isLabour(c) ? ['Juntada de manifestação do reclamante sobre a defesa.'] : ['Juntada de réplica.']) },
  evidenceOrdered: { code: '11010', texts: fixed('Despacho: especifiquem as partes as provas que pretendem produzir.') },
  expertReport: { code: '11383', texts: fixed('Ato ordinatório: vista às partes do laudo pericial.') },
  criminalDefence: { code: '85', texts: byLaw(CPP_REFORM, ['Juntada de defesa prévia.'], ['Juntada de resposta à acusação.']) },
  // The drug law's rite: a prior defence before the accusation is received.
  priorDefenceOrdered: { code: '11010', texts: fixed('Despacho: notifique-se o denunciado para apresentar defesa prévia em 10 dias (art. 55 da Lei 11.343/2006).') },
  noticeIssued: { code: '60', texts: fixed('Expedido mandado de notificação do denunciado.') },
  priorDefence: { code: '85', texts: fixed('Juntada de defesa prévia.') },
  drugAccusationReceived: {
    code: '11010', texts: fixed('Despacho: recebida a denúncia, designe-se audiência de instrução e julgamento e cite-se o acusado (art. 56 da Lei 11.343/2006).'),
  },
  // A decision on an urgent request, or on a debtor's objection: what an agravo attacks.
  injunctionGranted: { code: '332', texts: byLaw(CPC_2015, ['Decisão: deferido o pedido de antecipação de tutela.'], ['Decisão: deferida a tutela de urgência.']) },
  injunctionRefused: { code: '785', texts: byLaw(CPC_2015, ['Decisão: indeferido o pedido de antecipação de tutela.'], ['Decisão: indeferida a tutela de urgência.']) },
  objectionRejected: { code: '3', texts: fixed('Decisão: rejeitada a exceção de pré-executividade; prossiga-se na execução.') },
  decisionPublished: { code: '92', texts: fixed('Publicada a decisão no Diário da Justiça Eletrônico.') },
  // A defendant who never answers.
  defaultNoted: { code: '1051', texts: fixed('Decorrido o prazo sem contestação do réu.') },
  conciliationAbsent: { code: '970', texts: fixed('Audiência de conciliação realizada: ausente a parte ré, revel.') },
  firstHearingAbsent: { code: '970', texts: fixed('Audiência inicial realizada: ausente a reclamada, revel e confessa.') },
  singleHearingAbsent: { code: '970', texts: fixed('Audiência una realizada: ausente a reclamada, revel e confessa.') },
  // Incapacity judged: a physician examines the claimant.
  medicalExamOrdered: { code: '11010', texts: fixed('Despacho: designada perícia médica; intimem-se as partes para apresentar quesitos.') },
  medicalReport: { code: '11383', texts: fixed('Ato ordinatório: vista às partes do laudo médico pericial.') },
  // A debtor's embargos, distributed by dependency on the execution.
  embargosReceived: {
    code: '11010', texts: (c) => [c.group === 'tax' ? 'Despacho: recebidos os embargos; intime-se a embargada para impugnação em 30 dias (art. 17 da Lei 6.830/80).'
      : 'Despacho: recebidos os embargos; intime-se o embargado para impugnação em 15 dias.'],
  },
  embargosAnswer: { code: '85', texts: fixed('Juntada de impugnação aos embargos.') },
  hearingScheduled: { code: '970', texts: (c) => (isLabour(c) ? ['Audiência de instrução designada.'] : ['Audiência de instrução e julgamento designada.']) },
  hearingHeld: {
    code: '970', texts: (c) => (isLabour(c) ? ['Audiência de instrução realizada.'] : c.group === 'military'
      ? ['Audiência de instrução realizada perante o Conselho Permanente de Justiça.'] : ['Audiência de instrução e julgamento realizada.']),
  },
  closingArguments: { code: '85', texts: (c) => (isLabour(c) ? ['Juntada de razões finais.'] : ['Juntada de alegações finais.', 'Juntada de memoriais.']) },
  // Acts that may come at any time of a running first instance.
  published: { code: '92', texts: fixed('Publicado o despacho no Diário da Justiça Eletrônico.', 'Disponibilizado no Diário da Justiça Eletrônico.') },
  petition: { code: '85', texts: (c) => (c.defendantRepresented ? ['Juntada de petição de manifestação da parte autora.', 'Juntada de petição da parte ré.'] : ['Juntada de petição de manifestação da parte autora.']) },
  deadlinePassed: { code: '1051', texts: fixed('Decorrido o prazo sem manifestação.', 'Decorrido o prazo para a parte ré.') },
  answerOrdered: { code: '11010', texts: fixed('Despacho: manifeste-se a parte contrária no prazo de 15 dias.') },
  // Judgment, first instance.
  granted: {
    code: '219', texts: (c) => (c.embargos ? ['Julgados procedentes os embargos.'] : isCriminal(c) ? ['Julgada procedente a denúncia: réu condenado.'] : isLabour(c) ? ['Julgados procedentes os pedidos da reclamação trabalhista.']
      : c.group === 'electoral' ? ['Julgada procedente a representação: aplicada multa ao representado.']
        : isSocial(c) ? ['Julgado procedente o pedido: concedido o benefício.'] : ['Julgado procedente o pedido.']),
  },
  partlyGranted: { code: '221', texts: (c) => (c.embargos ? ['Julgados procedentes em parte os embargos.'] : isLabour(c) ? ['Julgados procedentes em parte os pedidos da reclamação trabalhista.'] : ['Julgado procedente em parte o pedido.']) },
  dismissed: {
    code: '220', texts: (c) => (c.embargos ? ['Julgados improcedentes os embargos.'] : isCriminal(c) ? ['Julgada improcedente a denúncia: réu absolvido.'] : isLabour(c) ? ['Julgados improcedentes os pedidos da reclamação trabalhista.']
      : c.group === 'electoral' ? ['Julgada improcedente a representação.'] : ['Julgado improcedente o pedido.']),
  },
  settled: { code: '466', texts: fixed('Homologado o acordo celebrado entre as partes.', 'Homologada a transação: extinto o processo com resolução do mérito.') },
  withdrawn: { code: '463', texts: fixed('Homologada a desistência da ação: extinto o processo sem resolução do mérito.') },
  judgmentPublished: { code: '92', texts: fixed('Publicada a sentença no Diário da Justiça Eletrônico.') },
  // The appeal, seen from the first instance.
  appealFiled: {
    code: '85', texts: (c) => (isCriminal(c) ? ['Juntada de petição de interposição de apelação.'] : c.group === 'tax' ? ['Juntada de apelação da exequente.'] : [`Juntada de ${c.appealName}.`]),
  },
  answerToAppealOrdered: { code: '11383', texts: fixed('Ato ordinatório: intime-se a parte recorrida para contrarrazões.') },
  answerToAppeal: { code: '85', texts: fixed('Juntada de contrarrazões.') },
  sentUp: { code: '123', texts: (c) => [`Remetidos os autos ${c.toAbove} para julgamento de ${c.appealName}.`] },
  cameBack: { code: '132', texts: (c) => [`Recebidos os autos ${c.fromAbove}.`] },
  returnNoticed: { code: '11383', texts: fixed('Ato ordinatório: intimem-se as partes do retorno dos autos.') },
  // After the judgment.
  resJudicata: { code: '848', texts: fixed('Certificado o trânsito em julgado.', 'Transitado em julgado.') },
  enforcementStarted: { code: '11385', texts: (c) => (isLabour(c) ? ['Iniciada a liquidação de sentença.'] : ['Iniciado o cumprimento de sentença.']) },
  enforcementPetition: { code: '85', texts: (c) => (isLabour(c) ? ['Juntada de cálculos de liquidação.'] : ['Juntada de petição de cumprimento de sentença.']) },
  paymentOrdered: {
    code: '11010', texts: (c, ms) => (isLabour(c) ? ['Despacho: homologados os cálculos, intime-se a executada para pagamento em 48 horas.']
      : c.fazenda ? [ms < CPC_2015 ? 'Despacho: intime-se a Fazenda Pública para opor embargos à execução em 30 dias (art. 730 do CPC).'
        : 'Despacho: intime-se a Fazenda Pública para, querendo, impugnar a execução em 30 dias (art. 535 do CPC).']
        : [`Despacho: intime-se o executado para pagamento em 15 dias, sob pena de multa de 10% (art. ${ms < CPC_2015 ? '475-J' : '523'} do CPC).`]),
  },
  seizureIssued: { code: '60', texts: fixed('Expedido mandado de penhora e avaliação.') },
  accountsSearched: { code: '11383', texts: fixed('Ato ordinatório: juntado o resultado da pesquisa de bens e valores do executado.') },
  paymentReleased: {
    code: '60', texts: (c) => (isCriminal(c) ? ['Expedida guia de execução penal.'] : isSocial(c) ? ['Expedida requisição de pequeno valor (RPV).']
      : c.fazenda ? ['Expedido ofício requisitório (precatório).'] : ['Expedido alvará de levantamento.']),
  },
  paymentReported: {
    code: '85', texts: (c) => (c.group === 'tax' ? ['Juntada de petição da exequente informando o pagamento do débito.']
      : c.defendantRepresented ? ['Juntada de comprovante de pagamento.'] : ['Juntada de petição da parte autora informando o pagamento.']),
  },
  enforcementEnded: { code: '196', texts: (c) => (c.group === 'tax' ? ['Extinta a execução pelo pagamento do débito.'] : ['Extinta a execução pela satisfação da obrigação.']) },
  suspensionOrdered: {
    code: '11010', texts: (c, ms) => (c.group === 'tax' ? ['Despacho: suspenda-se a execução nos termos do art. 40 da Lei 6.830/80.']
      : [`Despacho: suspenda-se a execução por falta de bens penhoráveis (art. ${ms < CPC_2015 ? '791, III' : '921, III'}, do CPC).`]),
  },
  shelved: { code: '245', texts: fixed('Arquivados provisoriamente os autos.') },
  unshelved: { code: '893', texts: fixed('Desarquivados os autos a pedido da parte.') },
  timeBarred: { code: '471', texts: fixed('Reconhecida a prescrição intercorrente: extinta a execução.') },
  archived: { code: '246', texts: fixed('Arquivados definitivamente os autos.', 'Autos arquivados definitivamente.') },
  cancelled: { code: '22', texts: fixed('Baixa definitiva: cancelada a distribuição por falta de recolhimento das custas.') },
  // An appellate body (second instance, superior courts).
  distributedAbove: { code: '26', texts: (c) => [`Distribuído por sorteio à ${c.court}.`] },
  toRapporteur: { code: '51', texts: fixed('Conclusos ao relator.') },
  prosecutorOpinion: { code: '85', texts: (c) => (isCriminal(c) ? ['Juntada de parecer da Procuradoria-Geral de Justiça.'] : ['Juntada de parecer do Ministério Público.']) },
  interlocutoryAdmitted: { code: '11010', texts: fixed('Despacho: processe-se o agravo; intime-se a parte agravada para contraminuta.') },
  interlocutoryAnswer: { code: '85', texts: fixed('Juntada de contraminuta.') },
  onAgenda: { code: '417', texts: fixed('Incluído em pauta para julgamento.', 'Incluído em pauta de sessão virtual.') },
  appealGranted: { code: '237', texts: fixed('Conhecido o recurso e provido.', 'Dado provimento ao recurso, por unanimidade.') },
  appealPartlyGranted: { code: '238', texts: fixed('Dado parcial provimento ao recurso.', 'Conhecido o recurso e provido em parte.') },
  appealDismissed: { code: '239', texts: fixed('Conhecido o recurso e não provido.', 'Negado provimento ao recurso, por unanimidade.') },
  appealNotHeard: { code: '235', texts: fixed('Não conhecido o recurso.') },
  rulingPublished: { code: '92', texts: fixed('Publicado o acórdão no Diário da Justiça Eletrônico.') },
  clarificationFiled: { code: '85', texts: fixed('Juntada de embargos de declaração.') },
  clarificationRejected: { code: '200', texts: fixed('Rejeitados os embargos de declaração.') },
  sentDown: { code: '22', texts: fixed('Baixa definitiva dos autos à origem.') },
} satisfies Record<string, Act>;

export type ActName = keyof typeof ACTS;

/** The text of an act on date `ms`; `pick` chooses among the variants. */
export function stepText(act: Act, ctx: StepTextContext, pick: number, ms: number): string {
  const variants = act.texts(ctx, ms);
  return variants.length === 0 ? '' : variants[pick % variants.length];
}

// Every act's movement is in the bundled TPU extract (a missing code throws when the module loads).
for (const act of Object.values(ACTS)) tpuMovement(act.code);
