// The rows inside transfer files: lawsuits, their parties and their steps in flat form. The files only need a
// source of lawsuits, so the generator sits behind `FlatSource`; the sandbox universe can replace it by
// implementing the same one method, without the catalogue, the writers or the routes changing.

import { cnjCheckDigits, cpfCheckDigits, formatCnj } from '../check-digits.js';
import { hash, Rng } from '../random.js';
import { TRIBUNALS, TRIBUNAL_CUMULATIVE } from '../tribunals.js';
import { FIRST_NAMES, PERSON_TYPE_OF_SIDE, SIDES, STEP_TEXTS, SURNAMES } from '../vocab.js';

export type FlatKind = 'lawsuits' | 'parties' | 'steps';
export const FLAT_KINDS: readonly FlatKind[] = ['lawsuits', 'parties', 'steps'];

export type FlatValue = string | number | boolean | Date | null;
export type FlatRow = Record<string, FlatValue>;

type FlatColumnType = 'string' | 'int' | 'decimal' | 'timestamp' | 'bool';
export interface FlatColumn { name: string; type: FlatColumnType }

/** The columns of each kind of file, in file order (README, "Spec gaps", "Transfer-file contents"). */
export const FLAT_SCHEMAS: Record<FlatKind, readonly FlatColumn[]> = {
  lawsuits: [
    { name: 'code', type: 'string' }, { name: 'instance', type: 'int' }, { name: 'tribunal_acronym', type: 'string' },
    { name: 'justice', type: 'string' }, { name: 'tribunal', type: 'string' }, { name: 'distribution_date', type: 'timestamp' },
    { name: 'amount', type: 'decimal' }, { name: 'status', type: 'string' }, { name: 'phase', type: 'string' },
    { name: 'secrecy_level', type: 'int' }, { name: 'name', type: 'string' }, { name: 'area', type: 'string' },
    { name: 'state', type: 'string' }, { name: 'city', type: 'string' }, { name: 'updated_at', type: 'timestamp' },
  ],
  parties: [
    { name: 'code', type: 'string' }, { name: 'instance', type: 'int' }, { name: 'party_index', type: 'int' },
    { name: 'name', type: 'string' }, { name: 'side', type: 'string' }, { name: 'person_type', type: 'string' },
    { name: 'document', type: 'string' }, { name: 'document_type', type: 'string' },
  ],
  steps: [
    { name: 'code', type: 'string' }, { name: 'instance', type: 'int' }, { name: 'step_id', type: 'string' },
    { name: 'step_date', type: 'timestamp' }, { name: 'content', type: 'string' }, { name: 'private', type: 'bool' },
  ],
};

/** Where the files' rows come from. Pure: the same (kind, stream, index) always gives the same rows. */
export interface FlatSource {
  /** The rows of kind `kind` of the `index`-th lawsuit of file stream `stream` (each file reads its own stream
   * from index 0): one row for lawsuits, one per party or step otherwise. */
  rows(kind: FlatKind, stream: number, index: number): FlatRow[];
}

const PHASES = ['Inicial', 'Recurso', 'Sentença', 'Execução', 'Arquivado', 'Trânsito em julgado ou acordo', 'Aguardando execução ou julgamento'];
// Decisions and petitions run to pages: some steps carry a long text, as real ones do.
const PARAGRAPHS = [
  'Vistos. Trata-se de ação em que a parte autora alega, em síntese, o inadimplemento das obrigações assumidas pela parte ré, requerendo a condenação ao pagamento dos valores devidos, acrescidos de correção monetária e juros de mora.',
  'Citada, a parte ré apresentou contestação, arguindo preliminarmente a ilegitimidade passiva e, no mérito, a inexistência de débito, pugnando pela improcedência dos pedidos formulados na inicial.',
  'Houve réplica. Instadas as partes a especificarem provas, requereram o julgamento antecipado da lide, nos termos do artigo 355, inciso I, do Código de Processo Civil.',
  'É o relatório. Fundamento e decido. A preliminar não comporta acolhimento, pois a pertinência subjetiva da demanda deve ser aferida à luz das afirmações deduzidas na petição inicial (teoria da asserção).',
  'Ante o exposto, JULGO PROCEDENTE o pedido, com resolução do mérito, nos termos do artigo 487, inciso I, do Código de Processo Civil, para condenar a parte ré ao pagamento da quantia pleiteada.',
  'Condeno a parte vencida ao pagamento das custas, despesas processuais e honorários advocatícios, que fixo em 10% sobre o valor atualizado da condenação. Publique-se. Registre-se. Intimem-se.',
];
const DAY_MS = 86_400_000;
const EPOCH_2015 = Date.UTC(2015, 0, 1);

interface Head { code: string; instance: number; n7: string; distributed: number }

/** The transfer files' own deterministic rows, until the sandbox universe is wired in behind FlatSource. Each
 * kind is generated on its own (a lawsuits file never pays for parties and steps): huge files stay cheap. */
export function generatedFlatSource(seed: number): FlatSource {
  const head = (stream: number, index: number): Head & { rng: Rng; t: ReturnType<typeof weightedTribunal> } => {
    const rng = new Rng(hash(seed, 0x7f11e5, stream, index));
    const t = weightedTribunal(rng.next());
    const instance = rng.chance(0.8) ? 1 : 2;
    const n7 = String(hash(seed, stream, index, 7) % 10_000_000).padStart(7, '0');
    const year = String(2010 + rng.int(15));
    const origin = String(rng.range(1, 9999)).padStart(4, '0');
    const code = formatCnj(n7, cnjCheckDigits(n7, year, t.j, t.tr, origin), year, t.j, t.tr, origin);
    const distributed = EPOCH_2015 + rng.int(3650) * DAY_MS + rng.int(86_400) * 1000;
    return { rng, t, code, instance, n7, distributed };
  };
  const partyName = (stream: number, index: number, p: number): string => {
    const h = hash(seed, 0x9a57, stream, index, p);
    return `${FIRST_NAMES[h % FIRST_NAMES.length]} ${SURNAMES[(h >>> 16) % SURNAMES.length]}`;
  };
  return {
    rows(kind: FlatKind, stream: number, index: number): FlatRow[] {
      const { rng, t, code, instance, n7, distributed } = head(stream, index);
      if (kind === 'lawsuits') {
        return [{
          code, instance, tribunal_acronym: t.acronym, justice: t.j, tribunal: t.tr, distribution_date: new Date(distributed),
          amount: rng.int(50_000_000) / 100, status: rng.chance(0.7) ? 'Ativo' : 'Finalizado', phase: rng.pick(PHASES),
          secrecy_level: rng.chance(0.9) ? 0 : rng.range(1, 5), name: `${partyName(stream, index, 0)} x ${partyName(stream, index, 1)}`,
          area: t.area, state: t.uf, city: rng.pick(t.cities), updated_at: new Date(distributed + rng.range(1, 900) * DAY_MS),
        }];
      }
      if (kind === 'parties') {
        const r = new Rng(hash(seed, 0x9a57, stream, index));
        const count = r.range(2, 4);
        const out: FlatRow[] = [];
        for (let p = 0; p < count; p++) {
          const side = p === 0 ? 'Active' : p === 1 ? 'Passive' : SIDES[r.int(SIDES.length)];
          const body = String(hash(seed, stream, index, 100 + p) % 1_000_000_000).padStart(9, '0');
          out.push({ code, instance, party_index: p, name: partyName(stream, index, p), side, person_type: PERSON_TYPE_OF_SIDE[side], document: body + cpfCheckDigits(body), document_type: 'CPF' });
        }
        return out;
      }
      const r = new Rng(hash(seed, 0x57e9, stream, index));
      const count = r.range(1, 6);
      const out: FlatRow[] = [];
      let at = distributed;
      for (let s = 0; s < count; s++) {
        at += r.range(1, 90) * DAY_MS;
        const u = r.next();
        // Commas, quotes and accents on purpose: the CSV reader must cope with quoting.
        const content = u < 0.2 ? `Despacho: "cite-se", intime-se; prazo de ${r.range(5, 30)} dias.`
          : u < 0.3 ? longText(r) : r.pick(STEP_TEXTS);
        out.push({ code, instance, step_id: `${n7}${instance}${String(s).padStart(4, '0')}`, step_date: new Date(at), content, private: r.chance(0.05) });
      }
      return out;
    },
  };
}

function longText(r: Rng): string {
  const n = r.range(2, 12);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(PARAGRAPHS[(i + r.int(PARAGRAPHS.length)) % PARAGRAPHS.length]);
  return parts.join(' ');
}

function weightedTribunal(u: number) {
  const total = TRIBUNAL_CUMULATIVE[TRIBUNAL_CUMULATIVE.length - 1];
  const x = u * total;
  const i = TRIBUNAL_CUMULATIVE.findIndex((c) => x < c);
  return TRIBUNALS[i < 0 ? TRIBUNALS.length - 1 : i];
}

