// The federative units, declared once for every reader of identifiers (OAB sections, court codes).

/**
 * The 27 federative units, in the order the CNJ numbers them: a state court's TR in a CNJ number is the
 * UF's position here plus one (REFERENCE.md: 8.26 is SP). The OAB has one section per UF.
 */
export const UFS = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SE', 'SP', 'TO',
] as const;

export type Uf = (typeof UFS)[number];

const SET: ReadonlySet<string> = new Set(UFS);

/** True for one of the 27 UFs, upper case. */
export function isUf(s: string): s is Uf {
  return SET.has(s);
}
