// The punctuated forms people write a CPF and a CNPJ in (`092.065.297-22`, `12.ABC.345/01DE-35`), for tests that
// feed them to the readers. The product only reads them (src/spec/cpf-cnpj.ts keeps one normal form, unpunctuated);
// nothing of it writes them.

/** 11 digits -> `092.065.297-22`. */
export function formatCpf(cpf: string): string {
  if (!/^\d{11}$/.test(cpf)) throw new RangeError('a CPF in normal form is 11 digits');
  return `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
}

/** 14 characters -> `12.ABC.345/01DE-35`. */
export function formatCnpj(cnpj: string): string {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj)) throw new RangeError('a CNPJ in normal form is 12 characters of 0-9 or A-Z and 2 digits');
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}
