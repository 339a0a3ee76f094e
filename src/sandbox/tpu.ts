// An extract of the CNJ's unified procedural tables (Tabelas Processuais Unificadas, TPU): the classes,
// subjects and movements the synthetic universe uses, with their real codes and names (subjects with their
// parent in the subject tree). Plain data: the tests check every generated code against it, and an analyst can
// look codes up in the CNJ's own tables. Class names are the current ones (Resolução CNJ 46 as revised for the
// 2015 Code of Civil Procedure: 7 is "Procedimento Comum Cível", 198 "Apelação Cível"); subject names are as
// the table spells them, upper case and typos included ("AVISO PRÉVIO", "Indenizaçao por Dano Moral").

import { CPC_2015, CPP_REFORM } from './laws.js';

interface TpuItem {
  code: string;
  name: string;
  /** Parent in the subject tree (subjects only): the same name may sit under several parents. */
  parent?: string;
  /** Top of the subject's branch of the tree, the area of law (subjects only), e.g. 864 DIREITO DO TRABALHO. */
  root?: string;
  /** The instant the item can be used from: the law it names came into force (absent: before the universe begins). */
  since?: number;
}


const TPU_CLASSES: readonly TpuItem[] = [
  { code: '7', name: 'Procedimento Comum Cível' },
  { code: '436', name: 'Procedimento do Juizado Especial Cível' },
  { code: '69', name: 'Alimentos - Lei Especial Nº 5.478/68' },
  { code: '156', name: 'Cumprimento de sentença' },
  { code: '12078', name: 'Cumprimento de Sentença contra a Fazenda Pública', since: CPC_2015 },
  { code: '1114', name: 'Execução Contra a Fazenda Pública' },
  { code: '172', name: 'Embargos à Execução' },
  { code: '1118', name: 'Embargos à Execução Fiscal' },
  { code: '159', name: 'Execução de Título Extrajudicial' },
  { code: '1116', name: 'Execução Fiscal' },
  { code: '985', name: 'Ação Trabalhista - Rito Ordinário' },
  { code: '1125', name: 'Ação Trabalhista - Rito Sumaríssimo' },
  { code: '283', name: 'Ação Penal - Procedimento Ordinário' },
  { code: '10943', name: 'Ação Penal - Procedimento Sumário', since: CPP_REFORM },
  { code: '290', name: 'Processo Sumário (Detenção)' },
  { code: '300', name: 'Procedimento Especial da Lei Antitóxicos' },
  { code: '198', name: 'Apelação Cível' },
  { code: '202', name: 'Agravo de Instrumento' },
  { code: '460', name: 'Recurso Inominado Cível' },
  { code: '1009', name: 'Recurso Ordinário Trabalhista' },
  { code: '417', name: 'Apelação Criminal' },
  { code: '1032', name: 'Recurso Especial' },
  { code: '1008', name: 'Recurso de Revista' },
  { code: '11541', name: 'Representação' },
  { code: '11037', name: 'Ação Penal Militar - Procedimento Ordinário' },
];

const TPU_SUBJECTS: readonly TpuItem[] = [
  // DIREITO DO TRABALHO (864)
  { code: '2546', name: 'Verbas Rescisórias', parent: '2620', root: '864' },
  { code: '2641', name: 'AVISO PRÉVIO', parent: '2546', root: '864' },
  { code: '1998', name: 'Multa de 40% do FGTS', parent: '2546', root: '864' },
  { code: '2212', name: 'Multa do Artigo 477 da CLT', parent: '2546', root: '864' },
  { code: '2210', name: 'Multa do Artigo 467 da CLT', parent: '2546', root: '864' },
  { code: '8821', name: 'Férias Proporcionais', parent: '2546', root: '864' },
  { code: '8820', name: 'Décimo Terceiro Salário Proporcional', parent: '2546', root: '864' },
  { code: '8823', name: 'Saldo de Salário', parent: '2546', root: '864' },
  { code: '2435', name: 'Rescisão Indireta', parent: '2620', root: '864' },
  { code: '1904', name: 'Despedida / Dispensa Imotivada', parent: '2620', root: '864' },
  { code: '1907', name: 'Justa Causa / Falta Grave', parent: '2620', root: '864' },
  { code: '2666', name: 'Décimo Terceiro Salário', parent: '2581', root: '864' },
  { code: '2117', name: 'Supressão de Horas Extras Habituais - Indenização', parent: '2581', root: '864' },
  { code: '1681', name: 'Periculosidade', parent: '2594', root: '864' },
  { code: '2458', name: 'Salário / Diferença Salarial', parent: '2581', root: '864' },
  { code: '2697', name: 'Salário por Equiparação / Isonomia', parent: '2458', root: '864' },
  { code: '2540', name: 'Vale Transporte', parent: '2581', root: '864' },
  { code: '2021', name: 'Indenização / Terço Constitucional', parent: '2662', root: '864' },
  { code: '1855', name: 'Indenizaçao por Dano Moral', parent: '2567', root: '864' },
  { code: '1723', name: 'Assédio Moral', parent: '1855', root: '864' },
  { code: '2569', name: 'ACIDENTE DE TRABALHO', parent: '1855', root: '864' },
  { code: '8808', name: 'Indenização por Dano Material', parent: '2567', root: '864' },
  { code: '2704', name: 'Tomador de Serviços / Terceirização', parent: '1937', root: '864' },
  // DIREITO TRIBUTÁRIO (14)
  { code: '6017', name: 'Dívida Ativa', parent: '14', root: '14' },
  { code: '5952', name: 'IPTU/ Imposto Predial e Territorial Urbano', parent: '5916', root: '14' },
  { code: '5951', name: 'ISS/ Imposto sobre Serviços', parent: '5916', root: '14' },
  { code: '10536', name: 'Taxa de Coleta de Lixo', parent: '5972', root: '14' },
  { code: '5946', name: 'ICMS/ Imposto sobre Circulação de Mercadorias', parent: '5916', root: '14' },
  { code: '5953', name: 'IPVA - Imposto Sobre Propriedade de Veículos Automotores', parent: '5916', root: '14' },
  { code: '5933', name: 'IRPJ/Imposto de Renda de Pessoa Jurídica', parent: '5916', root: '14' },
  { code: '5917', name: 'IRPF/Imposto de Renda de Pessoa Física', parent: '5916', root: '14' },
  { code: '6035', name: 'Cofins', parent: '6033', root: '14' },
  { code: '6039', name: 'PIS', parent: '6033', root: '14' },
  { code: '6060', name: 'Contribuição sobre a folha de salários', parent: '6048', root: '14' },
  // DIREITO PENAL (287)
  { code: '3416', name: 'Furto', parent: '3415', root: '287' },
  { code: '3417', name: 'Furto Qualificado', parent: '3415', root: '287' },
  { code: '3419', name: 'Roubo', parent: '3415', root: '287' },
  { code: '5566', name: 'Roubo Majorado', parent: '3415', root: '287' },
  { code: '3431', name: 'Estelionato', parent: '3415', root: '287' },
  { code: '3432', name: 'Estelionato Majorado', parent: '3415', root: '287' },
  { code: '3435', name: 'Receptação', parent: '3415', root: '287' },
  { code: '3608', name: 'Tráfico de Drogas e Condutas Afins', parent: '3607', root: '287' },
  { code: '3385', name: 'Lesão Corporal', parent: '287', root: '287' },
  { code: '3402', name: 'Ameaça', parent: '3400', root: '287' },
  { code: '10949', name: 'Violência Doméstica Contra a Mulher', parent: '287', root: '287' },
  { code: '3574', name: 'Contrabando ou descaminho', parent: '5872', root: '287' },
  { code: '3614', name: 'Crimes contra a Ordem Tributária', parent: '3603', root: '287' },
  { code: '3539', name: 'Uso de documento falso', parent: '3523', root: '287' },
  // DIREITO PREVIDENCIÁRIO (195)
  { code: '6095', name: 'Aposentadoria por Invalidez', parent: '6094', root: '195' },
  { code: '6101', name: 'Auxílio-Doença Previdenciário', parent: '6094', root: '195' },
  { code: '6096', name: 'Aposentadoria por Idade (Art. 48/51)', parent: '6094', root: '195' },
  { code: '6118', name: 'Aposentadoria por Tempo de Contribuição (Art. 55/6)', parent: '6094', root: '195' },
  { code: '6100', name: 'Aposentadoria Especial (Art. 57/8)', parent: '6094', root: '195' },
  { code: '6114', name: 'Benefício Assistencial (Art. 203,V CF/88)', parent: '6094', root: '195' },
  { code: '6104', name: 'Pensão por Morte (Art. 74/9)', parent: '6094', root: '195' },
  { code: '6103', name: 'Salário-Maternidade (Art. 71/73)', parent: '6094', root: '195' },
  // DIREITO DO CONSUMIDOR (1156)
  { code: '7779', name: 'Indenização por Dano Moral', parent: '6220', root: '1156' },
  { code: '7780', name: 'Indenização por Dano Material', parent: '6220', root: '1156' },
  { code: '6226', name: 'Inclusão Indevida em Cadastro de Inadimplentes', parent: '7779', root: '1156' },
  { code: '7781', name: 'Protesto Indevido de Título', parent: '7779', root: '1156' },
  { code: '7768', name: 'Rescisão do contrato e devolução do dinheiro', parent: '6220', root: '1156' },
  { code: '7617', name: 'Telefonia', parent: '7771', root: '1156' },
  { code: '7760', name: 'Fornecimento de Energia Elétrica', parent: '7771', root: '1156' },
  { code: '7761', name: 'Fornecimento de Água', parent: '7771', root: '1156' },
  { code: '6233', name: 'Planos de Saúde', parent: '7771', root: '1156' },
  { code: '7752', name: 'Bancários', parent: '7771', root: '1156' },
  { code: '7772', name: 'Cartão de Crédito', parent: '7771', root: '1156' },
  { code: '11806', name: 'Empréstimo consignado', parent: '7752', root: '1156' },
  { code: '4829', name: 'Atraso de vôo', parent: '4862', root: '1156' },
  { code: '4832', name: 'Extravio de bagagem', parent: '4862', root: '1156' },
  { code: '11974', name: 'Cláusulas Abusivas', parent: '1156', root: '1156' },
  // DIREITO CIVIL (899)
  { code: '10433', name: 'Indenização por Dano Moral', parent: '10431', root: '899' },
  { code: '10439', name: 'Indenização por Dano Material', parent: '10431', root: '899' },
  { code: '10441', name: 'Acidente de Trânsito', parent: '10439', root: '899' },
  { code: '7698', name: 'Perdas e Danos', parent: '7691', root: '899' },
  { code: '7691', name: 'Inadimplemento', parent: '7681', root: '899' },
  { code: '9607', name: 'Contratos Bancários', parent: '9580', root: '899' },
  { code: '9587', name: 'Compra e Venda', parent: '9580', root: '899' },
  { code: '9596', name: 'Prestação de Serviços', parent: '9580', root: '899' },
  { code: '11000', name: 'Cobrança de Aluguéis - Sem despejo', parent: '9593', root: '899' },
  { code: '9612', name: 'Despejo por Denúncia Vazia', parent: '9593', root: '899' },
  { code: '10467', name: 'Despesas Condominiais', parent: '10463', root: '899' },
  { code: '4970', name: 'Cheque', parent: '7717', root: '899' },
  { code: '4980', name: 'Nota Promissória', parent: '7717', root: '899' },
  { code: '4972', name: 'Duplicata', parent: '7717', root: '899' },
  { code: '4960', name: 'Cédula de Crédito Bancário', parent: '7717', root: '899' },
  { code: '5779', name: 'Alimentos', parent: '5626', root: '899' },
  { code: '6239', name: 'Fixação', parent: '5779', root: '899' },
  { code: '5788', name: 'Revisão', parent: '5779', root: '899' },
  // DIREITO ADMINISTRATIVO E OUTRAS MATÉRIAS DE DIREITO PÚBLICO (9985)
  { code: '11884', name: 'Fornecimento de Medicamentos', parent: '10064', root: '9985' },
  { code: '10069', name: 'Tratamento Médico-Hospitalar e/ou Fornecimento de Medicamentos', parent: '10064', root: '9985' },
  { code: '9992', name: 'Indenização por Dano Moral', parent: '9991', root: '9985' },
  { code: '4842', name: 'Reajuste de Prestações', parent: '4839', root: '9985' },
  // DIREITO PROCESSUAL CIVIL E DO TRABALHO (8826)
  { code: '10671', name: 'Obrigação de Fazer / Não Fazer', parent: '9148', root: '8826' },
  // DIREITO ELEITORAL and DIREITO PENAL MILITAR: codes and names as the TSE's and the military courts' DataJud
  // payloads show them; their parents in the tree are not in this extract.
  { code: '11667', name: 'Propaganda Política - Propaganda Eleitoral - Extemporânea/Antecipada' },
  // Propaganda on the internet was regulated by Law 12.034 (29 September 2009); the spreading of known falsehoods
  // became a subject of its own with Resolution TSE 23.610 (18 December 2019).
  { code: '11679', name: 'Propaganda Política - Propaganda Eleitoral - Internet', since: Date.UTC(2009, 8, 29, 3) },
  { code: '12635', name: 'Propaganda Política - Propaganda Eleitoral - Divulgação de Notícia Sabidamente Falsa', since: Date.UTC(2019, 11, 18, 3) },
  { code: '11353', name: 'Corrupção passiva' },
];

const TPU_MOVEMENTS: readonly TpuItem[] = [
  { code: '26', name: 'Distribuição' },
  { code: '3', name: 'Decisão' },
  { code: '332', name: 'Concessão' },
  { code: '785', name: 'Não-Concessão' },
  { code: '132', name: 'Recebimento' },
  { code: '51', name: 'Conclusão' },
  { code: '11010', name: 'Mero expediente' },
  { code: '60', name: 'Expedição de documento' },
  { code: '85', name: 'Petição' },
  { code: '11383', name: 'Ato ordinatório' },
  { code: '92', name: 'Publicação' },
  { code: '970', name: 'Audiência' },
  { code: '1051', name: 'Decurso de Prazo' },
  { code: '219', name: 'Procedência' },
  { code: '220', name: 'Improcedência' },
  { code: '221', name: 'Procedência em Parte' },
  { code: '466', name: 'Homologação de Transação' },
  { code: '463', name: 'Desistência' },
  { code: '471', name: 'Pronúncia de Decadência ou Prescrição' },
  { code: '196', name: 'Extinção da execução ou do cumprimento da sentença' },
  { code: '11385', name: 'Execução/Cumprimento de Sentença Iniciada (o)' },
  { code: '417', name: 'Inclusão em pauta' },
  { code: '237', name: 'Provimento' },
  { code: '238', name: 'Provimento em Parte' },
  { code: '239', name: 'Não-Provimento' },
  { code: '235', name: 'Não Conhecimento de recurso' },
  { code: '200', name: 'Não-Acolhimento de Embargos de Declaração' },
  { code: '123', name: 'Remessa' },
  { code: '848', name: 'Trânsito em julgado' },
  { code: '22', name: 'Baixa Definitiva' },
  { code: '245', name: 'Provisório' },
  { code: '246', name: 'Definitivo' },
  { code: '893', name: 'Desarquivamento' },
];

const byCode = (list: readonly TpuItem[]) => new Map(list.map((x) => [x.code, x]));
const CLASS_BY_CODE = byCode(TPU_CLASSES);
const SUBJECT_BY_CODE = byCode(TPU_SUBJECTS);
const MOVEMENT_BY_CODE = byCode(TPU_MOVEMENTS);

function find(map: Map<string, TpuItem>, code: string, table: string): TpuItem {
  const item = map.get(code);
  // A code missing from the extract is a bug in the vocabulary, caught when the module loads.
  if (!item) throw new Error(`TPU ${table} code ${code} is not in the bundled extract`);
  return item;
}

export const tpuClass = (code: string): TpuItem => find(CLASS_BY_CODE, code, 'class');
export const tpuSubject = (code: string): TpuItem => find(SUBJECT_BY_CODE, code, 'subject');
export const tpuMovement = (code: string): TpuItem => find(MOVEMENT_BY_CODE, code, 'movement');
