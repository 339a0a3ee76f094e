import { it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
it('probe', async () => {
  for (const lawsuits of [6000, 20000]) {
    const T0 = Date.parse('2025-05-10T03:00:00Z');
    const sb = await startSandbox({ seed: 7, lawsuits, now: new Date(T0) });
    const t = Date.now();
    const c = sb.sampleDocuments(400).filter((d) => ['cpf', 'cnpj', 'oab', 'name'].includes(d.search_type));
    let changing = 0; let both = 0;
    for (const d of c) {
      const s = [0, 1, 2].map((n) => { sb.setNow(new Date(T0 + n * 86400000)); return sb.truth(d).length; });
      if (s[0] !== s[2]) changing++;
      if (s[0] !== s[1] && s[1] !== s[2]) both++;
    }
    console.log(lawsuits, c.length, changing, both, Date.now() - t);
    await sb.close();
  }
}, 120000);
