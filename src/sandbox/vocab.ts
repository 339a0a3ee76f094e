// Vocabulary of the synthetic universe: Brazilian names, the CNJ's unified tables (classes, subjects,
// movements), and the tribunals with their CNJ codes (J.TR), courts and quirks. Pools are limited on purpose
// so that name searches meet homonyms.

export const FIRST_NAMES = [
  'Ana', 'Maria', 'José', 'João', 'Antônio', 'Francisco', 'Carlos', 'Paulo', 'Pedro', 'Lucas', 'Luiz', 'Marcos',
  'Luís', 'Gabriel', 'Rafael', 'Daniel', 'Marcelo', 'Bruno', 'Eduardo', 'Felipe', 'Raimundo', 'Rodrigo', 'Manoel',
  'Mateus', 'André', 'Fernando', 'Fábio', 'Leonardo', 'Gustavo', 'Guilherme', 'Leandro', 'Tiago', 'Anderson',
  'Ricardo', 'Márcio', 'Jorge', 'Sebastião', 'Alexandre', 'Roberto', 'Edson', 'Diego', 'Vitor', 'Sérgio', 'Cláudio',
  'Matheus', 'Thiago', 'Geraldo', 'Adriano', 'Luciano', 'Júlio', 'Renato', 'Alex', 'Vinícius', 'Rogério', 'Samuel',
  'Ronaldo', 'Mário', 'Flávio', 'Igor', 'Douglas', 'Francisca', 'Antônia', 'Adriana', 'Juliana', 'Márcia',
  'Fernanda', 'Patrícia', 'Aline', 'Sandra', 'Camila', 'Amanda', 'Bruna', 'Jéssica', 'Letícia', 'Júlia', 'Luciana',
  'Vanessa', 'Mariana', 'Gabriela', 'Vera', 'Vitória', 'Larissa', 'Cláudia', 'Beatriz', 'Luana', 'Rita', 'Sônia',
  'Renata', 'Eliane', 'Josefa', 'Simone', 'Natália', 'Cristiane', 'Carla', 'Débora', 'Rosângela', 'Jaqueline',
  'Rosa', 'Daniela', 'Aparecida', 'Marlene', 'Terezinha', 'Raimunda', 'Andréia', 'Fabiana', 'Lúcia', 'Raquel',
  'Ângela', 'Rafaela', 'Joana', 'Luzia', 'Elaine', 'Daniele', 'Regina', 'Daiane', 'Sueli', 'Alessandra', 'Isabel',
];

export const SURNAMES = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa',
  'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa', 'Rocha', 'Dias',
  'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas', 'Cardoso', 'Ramos',
  'Gonçalves', 'Santana', 'Teixeira', 'Araújo', 'Pinto', 'Correia', 'Cavalcanti', 'Monteiro', 'Moura', 'Campos',
  'Batista', 'Rezende', 'Farias', 'Barros', 'Medeiros', 'Cunha', 'Pires', 'Castro', 'Miranda', 'Xavier', 'Borges',
  'Fonseca', 'Azevedo', 'Siqueira', 'Tavares', 'Nogueira', 'Guimarães', 'Pacheco', 'Brandão', 'Peixoto', 'Queiroz',
  'Sales', 'Macedo', 'Aguiar', 'Bezerra', 'Coelho', 'Duarte', 'Leite', 'Matos', 'Viana', 'Prado', 'Moraes', 'Brito',
  'Lacerda', 'Amaral', 'Bastos', 'Paiva', 'Figueiredo', 'Sampaio', 'Vasconcelos', 'Magalhães', 'Antunes', 'Reis',
  'Honorato', 'Bittencourt', 'Damasceno', 'Falcão', 'Galvão', 'Jardim', 'Leal', 'Lobo', 'Muniz', 'Neves', 'Pimentel',
  'Quintana', 'Sobral', 'Toledo', 'Valente',
];

export const COMPANY_HEADS = [
  'Banco', 'Companhia', 'Construtora', 'Transportadora', 'Comercial', 'Indústria', 'Distribuidora', 'Seguradora',
  'Telecomunicações', 'Agropecuária', 'Farmácia', 'Supermercados', 'Metalúrgica', 'Incorporadora', 'Hospital',
  'Cooperativa', 'Editora', 'Logística', 'Energia', 'Tecnologia',
];
export const COMPANY_TAILS = ['S.A.', 'Ltda', 'Ltda - ME', 'EIRELI', 'S/A', 'Ltda - EPP', 'Participações S.A.'];

/** Big litigants: few companies that appear in very many lawsuits (banks, telecoms, the State). */
export const BIG_LITIGANT_WORDS = [
  'Banco Nacional', 'Telefonia Brasil', 'Seguros Unidos', 'Energia Paulista', 'Varejo Nacional', 'Crédito Fácil',
  'Aviação Brasileira', 'Saneamento Estadual', 'Previdência Privada', 'Construtora Horizonte',
];

export interface CodeName { code: string; name: string }

/** CNJ unified table of classes (TPU), with the justice branches they are used in. */
export const CLASSES: Array<CodeName & { justices: string[]; instance: 1 | 2 }> = [
  { code: '7', name: 'Procedimento Comum Cível', justices: ['8', '4'], instance: 1 },
  { code: '436', name: 'Procedimento do Juizado Especial Cível', justices: ['8', '4'], instance: 1 },
  { code: '1116', name: 'Execução Fiscal', justices: ['8', '4'], instance: 1 },
  { code: '159', name: 'Execução de Título Extrajudicial', justices: ['8', '4'], instance: 1 },
  { code: '1094', name: 'Cumprimento de sentença', justices: ['8'], instance: 1 },
  { code: '120', name: 'Mandado de Segurança Cível', justices: ['8', '4'], instance: 1 },
  { code: '985', name: 'Ação Trabalhista - Rito Ordinário', justices: ['5'], instance: 1 },
  { code: '1125', name: 'Ação Trabalhista - Rito Sumaríssimo', justices: ['5'], instance: 1 },
  { code: '198', name: 'Apelação Cível', justices: ['8', '4'], instance: 2 },
  { code: '202', name: 'Agravo de Instrumento', justices: ['8', '4', '5'], instance: 2 },
  { code: '1009', name: 'Recurso Ordinário Trabalhista', justices: ['5'], instance: 2 },
  { code: '283', name: 'Ação Penal - Procedimento Ordinário', justices: ['8', '4'], instance: 1 },
];

/** CNJ unified table of subjects (a tree: the same name can sit under different parents). */
export const SUBJECTS: CodeName[] = [
  { code: '7698', name: 'Perdas e Danos' },
  { code: '10433', name: 'Indenização por Dano Moral' },
  { code: '10439', name: 'Indenização por Dano Material' },
  { code: '7780', name: 'Contratos Bancários' },
  { code: '11806', name: 'Fornecimento de Energia Elétrica' },
  { code: '6226', name: 'Telefonia' },
  { code: '9580', name: 'Rescisão do contrato e devolução do dinheiro' },
  { code: '5946', name: 'Cobrança de Aluguéis - Sem despejo' },
  { code: '6017', name: 'IPTU/ Imposto Predial e Territorial Urbano' },
  { code: '5952', name: 'Dívida Ativa' },
  { code: '2581', name: 'Verbas Rescisórias' },
  { code: '1855', name: 'Horas Extras' },
  { code: '2021', name: 'Adicional de Insalubridade' },
  { code: '1690', name: 'Rescisão Indireta' },
  { code: '6104', name: 'Aposentadoria por Invalidez' },
  { code: '6095', name: 'Auxílio-Doença Previdenciário' },
  { code: '3436', name: 'Alimentos' },
  { code: '7619', name: 'Obrigação de Fazer / Não Fazer' },
  { code: '4703', name: 'Acidente de Trânsito' },
  { code: '10671', name: 'Planos de Saúde' },
  { code: '3608', name: 'Furto' },
  { code: '10437', name: 'Indenização por Dano Moral' },
];

/** CNJ unified table of movements used for steps, by the stage of the lawsuit's life they belong to. */
export const MOVEMENTS: Record<string, CodeName[]> = {
  start: [{ code: '26', name: 'Distribuição' }, { code: '132', name: 'Recebimento' }],
  early: [
    { code: '51', name: 'Conclusão' }, { code: '11010', name: 'Mero expediente' }, { code: '60', name: 'Expedição de documento' },
    { code: '85', name: 'Petição' }, { code: '11383', name: 'Ato ordinatório' }, { code: '92', name: 'Publicação' },
  ],
  judgment: [{ code: '219', name: 'Procedência' }, { code: '220', name: 'Improcedência' }, { code: '221', name: 'Procedência em Parte' }],
  appeal: [{ code: '123', name: 'Remessa' }, { code: '85', name: 'Petição' }, { code: '51', name: 'Conclusão' }],
  final: [{ code: '848', name: 'Trânsito em julgado' }],
  execution: [{ code: '11385', name: 'Penhora' }, { code: '60', name: 'Expedição de documento' }, { code: '85', name: 'Petição' }],
  archive: [{ code: '22', name: 'Baixa Definitiva' }, { code: '246', name: 'Arquivamento' }],
};

export const STEP_TEXTS = [
  'Juntada de petição de manifestação da parte autora.', 'Conclusos para despacho.', 'Certidão de publicação expedida.',
  'Intimação eletrônica expedida às partes.', 'Decorrido prazo sem manifestação.', 'Juntada de aviso de recebimento.',
  'Despacho: manifeste-se a parte contrária no prazo de 15 dias.', 'Audiência de conciliação designada.',
  'Recebidos os autos do Tribunal.', 'Mandado de citação expedido.', 'Juntada de documento.', 'Remetidos os autos ao contador.',
];

export interface TribunalDef {
  acronym: string; j: string; tr: string; uf: string; weight: number;
  justiceDescription: string; area: string; cities: string[];
  /** Document and name searches of this tribunal leave out steps, attachments, phase and status. */
  sparse?: boolean;
  /** Courts of this tribunal come without code. */
  courtsWithoutCode?: boolean;
  /** last_step is not given by this tribunal. */
  noLastStep?: boolean;
  /** Extra, tribunal-specific properties on the lawsuit object. */
  extras?: (u: number) => Record<string, unknown>;
}

const STATE = 'JUSTIÇA ESTADUAL';
const LABOUR = 'JUSTIÇA DO TRABALHO';
const FEDERAL = 'JUSTIÇA FEDERAL';

export const TRIBUNALS: TribunalDef[] = [
  { acronym: 'TJSP', j: '8', tr: '26', uf: 'SP', weight: 30, justiceDescription: STATE, area: 'Cível', cities: ['São Paulo', 'Campinas', 'Santos', 'Ribeirão Preto', 'Sorocaba', 'Guarulhos'], extras: (u) => ({ foro: u < 0.5 ? 'Foro Central Cível' : 'Foro Regional' }) },
  { acronym: 'TJRJ', j: '8', tr: '19', uf: 'RJ', weight: 10, justiceDescription: STATE, area: 'Cível', cities: ['Rio de Janeiro', 'Niterói', 'Duque de Caxias', 'Nova Iguaçu'] },
  { acronym: 'TJMG', j: '8', tr: '13', uf: 'MG', weight: 9, justiceDescription: STATE, area: 'Cível', cities: ['Belo Horizonte', 'Uberlândia', 'Contagem', 'Juiz de Fora'], noLastStep: true },
  { acronym: 'TJRS', j: '8', tr: '21', uf: 'RS', weight: 6, justiceDescription: STATE, area: 'Cível', cities: ['Porto Alegre', 'Caxias do Sul', 'Pelotas'] },
  { acronym: 'TJPR', j: '8', tr: '16', uf: 'PR', weight: 5, justiceDescription: STATE, area: 'Cível', cities: ['Curitiba', 'Londrina', 'Maringá'], courtsWithoutCode: true },
  { acronym: 'TJBA', j: '8', tr: '05', uf: 'BA', weight: 4, justiceDescription: STATE, area: 'Cível', cities: ['Salvador', 'Feira de Santana'], sparse: true },
  { acronym: 'TJPE', j: '8', tr: '17', uf: 'PE', weight: 3, justiceDescription: STATE, area: 'Cível', cities: ['Recife', 'Olinda'] },
  { acronym: 'TJDFT', j: '8', tr: '07', uf: 'DF', weight: 3, justiceDescription: STATE, area: 'Cível', cities: ['Brasília'], extras: (u) => ({ segredo_justica_motivo: null, juizo_100_digital: u < 0.4 }) },
  { acronym: 'TJCE', j: '8', tr: '06', uf: 'CE', weight: 2, justiceDescription: STATE, area: 'Cível', cities: ['Fortaleza'], sparse: true, noLastStep: true },
  { acronym: 'TJAL', j: '8', tr: '02', uf: 'AL', weight: 1, justiceDescription: STATE, area: 'Cível', cities: ['Maceió'] },
  { acronym: 'TRT2', j: '5', tr: '02', uf: 'SP', weight: 8, justiceDescription: LABOUR, area: 'Trabalhista', cities: ['São Paulo', 'Guarulhos', 'Osasco'], extras: (u) => ({ orgao_julgador_colegiado: u < 0.3 ? '4ª Turma' : null }) },
  { acronym: 'TRT15', j: '5', tr: '15', uf: 'SP', weight: 4, justiceDescription: LABOUR, area: 'Trabalhista', cities: ['Campinas', 'Sorocaba', 'Jundiaí'], sparse: true },
  { acronym: 'TRT1', j: '5', tr: '01', uf: 'RJ', weight: 3, justiceDescription: LABOUR, area: 'Trabalhista', cities: ['Rio de Janeiro'], courtsWithoutCode: true },
  { acronym: 'TRT3', j: '5', tr: '03', uf: 'MG', weight: 3, justiceDescription: LABOUR, area: 'Trabalhista', cities: ['Belo Horizonte'] },
  { acronym: 'TRF3', j: '4', tr: '03', uf: 'SP', weight: 4, justiceDescription: FEDERAL, area: 'Cível', cities: ['São Paulo', 'Campinas'], extras: (u) => ({ vara_federal: u < 0.5 ? 'Vara Previdenciária' : 'Vara Cível' }) },
  { acronym: 'TRF1', j: '4', tr: '01', uf: 'DF', weight: 2, justiceDescription: FEDERAL, area: 'Cível', cities: ['Brasília'], sparse: true },
  { acronym: 'TRF2', j: '4', tr: '02', uf: 'RJ', weight: 2, justiceDescription: FEDERAL, area: 'Cível', cities: ['Rio de Janeiro'] },
  { acronym: 'TRF4', j: '4', tr: '04', uf: 'RS', weight: 2, justiceDescription: FEDERAL, area: 'Cível', cities: ['Porto Alegre', 'Curitiba'], noLastStep: true },
];

export const TRIBUNAL_CUMULATIVE = ((): number[] => { let s = 0; return TRIBUNALS.map((t) => (s += t.weight)); })();

const FIRST_INSTANCE_COURT: Record<string, string[]> = {
  '8': ['1ª Vara Cível', '2ª Vara Cível', '3ª Vara Cível', 'Juizado Especial Cível', '1ª Vara da Fazenda Pública', 'Vara de Família e Sucessões', '2ª Vara Criminal'],
  '5': ['1ª Vara do Trabalho', '2ª Vara do Trabalho', '15ª Vara do Trabalho', '45ª Vara do Trabalho'],
  '4': ['1ª Vara Federal', '2ª Vara Federal Previdenciária', 'Juizado Especial Federal', '6ª Vara de Execuções Fiscais'],
};
const SECOND_INSTANCE_COURT: Record<string, string[]> = {
  '8': ['3ª Câmara de Direito Privado', '12ª Câmara de Direito Privado', '5ª Câmara de Direito Público', '1ª Turma Recursal Cível'],
  '5': ['4ª Turma', '11ª Turma', 'Seção Especializada em Dissídios Individuais'],
  '4': ['3ª Turma', '7ª Turma', 'Turma Regional de Uniformização'],
};

/** Court name for (justice, instance, pick). */
export function courtName(j: string, instance: number, u: number, city: string): string {
  const list = instance >= 2 ? SECOND_INSTANCE_COURT[j] : FIRST_INSTANCE_COURT[j];
  const name = list[Math.floor(u * list.length)];
  return instance >= 2 ? name : `${name} de ${city}`;
}

export const SIDES = ['Active', 'Passive', 'Interested', 'Unknown'] as const;
export type SideName = (typeof SIDES)[number];
export const PERSON_TYPE_OF_SIDE: Record<SideName, string> = { Active: 'Autor', Passive: 'Réu', Interested: 'Desconhecido', Unknown: 'Desconhecido' };

export const UFS = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SE', 'SP', 'TO'];
