// Documents lists for tests.

/** `n` distinct CPFs with valid check digits (REFERENCE.md), so the list reader accepts every line. */
export function cpfs(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const body = String(100_000_001 + i * 7919).padStart(9, '0').slice(0, 9).split('').map(Number);
    if (body.every((d) => d === body[0])) continue;
    const digit = (ds: number[], w0: number) => { const r = ds.reduce((s, d, k) => s + d * (w0 - k), 0) % 11; return r < 2 ? 0 : 11 - r; };
    const d1 = digit(body, 10);
    const d2 = digit([...body, d1], 11);
    out.push([...body, d1, d2].join(''));
  }
  return out;
}
