// Vocabulary of the synthetic universe: Brazilian names of people, sides and states. Pools are limited on purpose
// so that name searches meet homonyms. Company names are in company-names.ts, tribunals in tribunals.ts, the CNJ's
// tables in tpu.ts.

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

/** The women's names among FIRST_NAMES (a claim only a woman makes goes to one of them: maternity pay). */
export const WOMEN_FIRST_NAMES: ReadonlySet<string> = new Set(['Ana', 'Maria', ...FIRST_NAMES.slice(FIRST_NAMES.indexOf('Francisca'))]);

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

/** Step texts of the transfer files' own generator (transfer/flat-source.ts). */
export const STEP_TEXTS = [
  'Juntada de petição de manifestação da parte autora.', 'Conclusos para despacho.', 'Certidão de publicação expedida.',
  'Intimação eletrônica expedida às partes.', 'Decorrido prazo sem manifestação.', 'Juntada de aviso de recebimento.',
  'Despacho: manifeste-se a parte contrária no prazo de 15 dias.', 'Audiência de conciliação designada.',
  'Recebidos os autos do Tribunal.', 'Mandado de citação expedido.', 'Juntada de documento.', 'Remetidos os autos ao contador.',
];

export const SIDES = ['Active', 'Passive', 'Interested', 'Unknown'] as const;
export type SideName = (typeof SIDES)[number];
export const PERSON_TYPE_OF_SIDE: Record<SideName, string> = { Active: 'Autor', Passive: 'Réu', Interested: 'Desconhecido', Unknown: 'Desconhecido' };

export const UFS = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SE', 'SP', 'TO'];
