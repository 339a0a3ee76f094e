import { afterAll, describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { probeDialect } from '../../src/pipeline/dialect.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

// The first night on a new key probes a responses listing that holds nothing yet: there is no order to judge, so
// the first sort names the upstream accepts are taken (unverified, as before) with the largest page size in one
// call, not after asking both directions of every candidate (five calls where one tells as much). The dialect
// learned is the same.

const sandboxes: Sandbox[] = [];
afterAll(async () => { for (const s of sandboxes) await s.close(); });

async function probeEmpty(dialect: 'documented' | 'spec') {
  const sb = await startSandbox({ seed: 3, dialect });
  sandboxes.push(sb);
  const api = new LawsuitApi({ apiKey: 'sandbox-key', urls: { requests: sb.url, tracking: sb.url, lawsuits: sb.url, transfer: sb.url } });
  try {
    const r = await probeDialect(api);
    return { ...r, sent: sb.counters().by_endpoint['GET /responses'] };
  } finally {
    await api.close();
  }
}

describe('probing an empty responses listing', () => {
  it('documented: pages of 1000 and the documented sort names accepted, in one call', async () => {
    const r = await probeEmpty('documented');
    expect(r.calls).toBe(1);
    expect(r.sent).toEqual({ 200: 1 });
    expect(r.dialect).toMatchObject({ pageSize: 1000, pageSizeVerified: false, sortVerified: false });
    expect(r.dialect.sort?.field).toBe('orderField');
    expect(r.findings.find((f) => f.topic === 'sort orderField/orderDirection')?.result).toMatch(/^accepted; the listing is empty/);
  });

  it('spec: 1000 refused with the names and alone, then 100, the documented names refused, the spec\'s accepted', async () => {
    const r = await probeEmpty('spec');
    expect(r.calls).toBe(5);
    expect(r.sent).toEqual({ 200: 2, 400: 3 });
    expect(r.dialect).toMatchObject({ pageSize: 100, pageSizeVerified: true, sortVerified: false });
    expect(r.dialect.sort?.field).toBe('order_by');
  });
});
