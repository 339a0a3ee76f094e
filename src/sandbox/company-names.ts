// Company names a commercial registry would accept, and the sector each name tells. The name's legal form follows
// the company's: banks and insurers are corporations (S.A.) by law, a cooperative is never one, and EIRELI (ended
// in 2021) is not used at all, since companies of the universe stand in lawsuits up to 2027. The first word says
// the business, which is also how an analyst reads the defendant's sector.

export type Sector = 'bank' | 'insurer' | 'telecom' | 'energy' | 'water' | 'airline' | 'retail' | 'construction'
  | 'transport' | 'industry' | 'agro' | 'health' | 'tech' | 'publisher' | 'pension';

interface NameForm { head: string; tail: string; sector: Sector }

const form = (head: string, sector: Sector, tails: string[]): NameForm[] => tails.map((tail) => ({ head, tail, sector }));

/** Every accepted (first words, legal form) pair of the small companies; a name is `head surname tail`. */
export const NAME_FORMS: readonly NameForm[] = [
  ...form('Banco', 'bank', ['S.A.', 'S/A']),
  ...form('Seguradora', 'insurer', ['S.A.']),
  ...form('Cooperativa de Crédito', 'bank', ['', 'Ltda']),
  ...form('Cooperativa Agropecuária', 'agro', ['', 'Ltda']),
  ...form('Construtora', 'construction', ['Ltda', 'S.A.', 'Ltda - EPP']),
  ...form('Incorporadora', 'construction', ['Ltda', 'S.A.']),
  ...form('Transportadora', 'transport', ['Ltda', 'Ltda - ME', 'S.A.']),
  ...form('Logística', 'transport', ['Ltda', 'S.A.']),
  ...form('Comercial', 'retail', ['Ltda', 'Ltda - ME', 'Ltda - EPP']),
  ...form('Distribuidora', 'retail', ['Ltda', 'Ltda - EPP']),
  ...form('Supermercados', 'retail', ['Ltda', 'S.A.', 'Ltda - EPP']),
  ...form('Farmácia', 'retail', ['Ltda - ME', 'Ltda', 'Ltda - EPP']),
  ...form('Indústria', 'industry', ['Ltda', 'S.A.']),
  ...form('Metalúrgica', 'industry', ['Ltda', 'S.A.']),
  ...form('Agropecuária', 'agro', ['Ltda', 'S.A.', 'Ltda - ME']),
  ...form('Hospital', 'health', ['Ltda', 'S.A.']),
  ...form('Editora', 'publisher', ['Ltda', 'S.A.']),
  ...form('Telecomunicações', 'telecom', ['S.A.', 'Ltda']),
  ...form('Energia', 'energy', ['S.A.', 'Ltda']),
  ...form('Tecnologia', 'tech', ['Ltda', 'S.A.', 'Ltda - ME']),
];

/**
 * The country's biggest banks, the largest litigants of all, under their real names and CNPJs (their head offices'):
 * an analyst knows them on sight. The Caixa Econômica Federal, a federal body, is among the public entities.
 */
export const BIG_BANKS: ReadonlyArray<{ name: string; document: string }> = [
  { name: 'Banco do Brasil S.A.', document: '00000000000191' }, { name: 'Itaú Unibanco S.A.', document: '60701190000104' },
  { name: 'Banco Bradesco S.A.', document: '60746948000112' }, { name: 'Banco Santander (Brasil) S.A.', document: '90400888000142' },
];

/** The other companies that stand in very many lawsuits (telecoms, airlines, utilities...), with their sector. */
export const BIG_LITIGANTS: ReadonlyArray<{ word: string; sector: Sector }> = [
  { word: 'Telefonia Brasil', sector: 'telecom' }, { word: 'Seguros Unidos', sector: 'insurer' },
  { word: 'Energia Paulista', sector: 'energy' }, { word: 'Varejo Nacional', sector: 'retail' },
  { word: 'Aviação Brasileira', sector: 'airline' }, { word: 'Saneamento Estadual', sector: 'water' },
  { word: 'Previdência Privada', sector: 'pension' }, { word: 'Construtora Horizonte', sector: 'construction' },
];

export function companyName(f: NameForm, surname: string): string {
  return f.tail === '' ? `${f.head} ${surname}` : `${f.head} ${surname} ${f.tail}`;
}
