// The text of a step, as the tribunal writes it for that movement: a distribution reads like a distribution,
// a judgment like a judgment. Texts depend on the movement (its TPU code is the step's step_type), the kind of
// case (a labour court sends the records to the TRT, a criminal judgment convicts or acquits) and the instance.

import type { CaseGroup } from './tribunals.js';

export interface StepTextContext {
  group: CaseGroup;
  instance: number;
  /** The court the case runs in. */
  court: string;
  /** Acronym of the tribunal (the appeal goes there). */
  tribunal: string;
}

type Variants = (c: StepTextContext) => string[];

const appealName = (c: StepTextContext) => (c.group === 'labour' ? 'recurso ordinário' : c.group === 'smallClaims' || c.group === 'socialSecurity' ? 'recurso inominado' : 'apelação');
const higherBody = (c: StepTextContext) => (c.group === 'smallClaims' || c.group === 'socialSecurity' ? 'à Turma Recursal' : `ao ${c.tribunal}`);

const TEXTS: Record<string, Variants> = {
  '26': (c) => (c.instance >= 2
    ? [`Distribuído por sorteio à ${c.court}.`, `Distribuído por prevenção à ${c.court}.`]
    : [`Distribuído por sorteio para ${c.court}.`, `Distribuído por dependência para ${c.court}.`]),
  '132': () => ['Recebidos os autos.', 'Recebidos os autos do juízo de origem.'],
  '51': () => ['Conclusos para despacho.', 'Conclusos para decisão.', 'Conclusos para julgamento.'],
  '11010': (c) => (c.group === 'criminal'
    ? ['Despacho: dê-se vista ao Ministério Público.', 'Despacho: intime-se a defesa para apresentar resposta à acusação.']
    : ['Despacho: cite-se a parte ré.', 'Despacho: manifeste-se a parte contrária no prazo de 15 dias.', 'Despacho: especifiquem as partes as provas que pretendem produzir.']),
  '60': (c) => (c.group === 'criminal'
    ? ['Expedido mandado de citação do réu.', 'Expedido ofício.']
    : c.group === 'tax'
      ? ['Expedida carta de citação do executado.', 'Expedido mandado de penhora e avaliação.']
      : ['Expedida carta de citação.', 'Expedido mandado de intimação.', 'Expedida certidão.']),
  '85': (c) => (c.group === 'criminal'
    ? ['Juntada de resposta à acusação.', 'Juntada de alegações finais.']
    : c.group === 'labour'
      ? ['Juntada de contestação da reclamada.', 'Juntada de manifestação do reclamante.']
      : ['Juntada de contestação.', 'Juntada de petição de manifestação da parte autora.', 'Juntada de petição da parte ré.']),
  '11383': () => ['Ato ordinatório praticado: intime-se a parte autora para réplica.', 'Ato ordinatório: vista às partes do laudo pericial.', 'Ato ordinatório: intimem-se as partes do retorno dos autos.'],
  '92': () => ['Publicado o despacho no Diário da Justiça Eletrônico.', 'Disponibilizado no Diário da Justiça Eletrônico.'],
  '970': (c) => (c.group === 'labour'
    ? ['Audiência inicial realizada.', 'Audiência de instrução realizada.', 'Audiência una designada.']
    : c.group === 'criminal'
      ? ['Audiência de instrução e julgamento designada.', 'Audiência de instrução e julgamento realizada.']
      : ['Audiência de conciliação designada.', 'Audiência de conciliação realizada, sem acordo.']),
  '1051': () => ['Decorrido o prazo sem manifestação.', 'Decorrido o prazo para a parte ré.'],
  '219': (c) => (c.group === 'criminal' ? ['Julgada procedente a denúncia: réu condenado.'] : c.group === 'tax' ? ['Julgados procedentes os pedidos da exequente.'] : ['Julgado procedente o pedido.']),
  '220': (c) => (c.group === 'criminal' ? ['Julgada improcedente a denúncia: réu absolvido.'] : ['Julgado improcedente o pedido.']),
  '221': () => ['Julgado procedente em parte o pedido.'],
  '237': () => ['Conhecido o recurso e provido.', 'Dado provimento ao recurso, por unanimidade.'],
  '239': () => ['Conhecido o recurso e não provido.', 'Negado provimento ao recurso, por unanimidade.'],
  '123': (c) => (c.instance >= 2 ? ['Remetidos os autos à origem.'] : [`Remetidos os autos ${higherBody(c)} para julgamento de ${appealName(c)}.`, 'Remetidos os autos ao contador.']),
  '848': () => ['Certificado o trânsito em julgado.', 'Transitado em julgado.'],
  '22': (c) => (c.instance >= 2 ? ['Baixa definitiva dos autos à origem.'] : ['Baixa definitiva dos autos.']),
  '246': () => ['Arquivados definitivamente os autos.', 'Autos arquivados definitivamente.'],
};

/** The text of a step of movement `code`; `pick` chooses among the variants. */
export function stepText(code: string, ctx: StepTextContext, pick: number): string {
  const variants = TEXTS[code]?.(ctx) ?? [];
  return variants.length === 0 ? '' : variants[pick % variants.length];
}

/** Movement codes the texts cover (the tests check that every movement used has texts). */
export const MOVEMENTS_WITH_TEXT = Object.keys(TEXTS);
