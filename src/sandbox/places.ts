// How a place is named after "de": Portuguese contracts the preposition with the article some city names take
// ("do Rio de Janeiro", "do Recife"), never with the others ("de São Paulo", "de Brasília"). Every court,
// forum and municipality name of the universe goes through here.

/** Cities of the universe whose name takes the article, with the contracted preposition. */
const WITH_ARTICLE: Readonly<Record<string, string>> = { 'Rio de Janeiro': 'do', Recife: 'do' };

/** "de São Paulo", "do Rio de Janeiro". */
export function ofCity(city: string): string {
  return `${WITH_ARTICLE[city] ?? 'de'} ${city}`;
}
