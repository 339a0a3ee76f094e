// The synchronous answers of a party with tens of thousands of lawsuits must not be built whole (1M universe: a
// municipality with 28,500 lawsuits crashed a 128 MB sandbox on POST /lawsuits and on the grouped summary). The
// historical answer is written lawsuit by lawsuit as it is read, without steps and attachments (REFERENCE.md: the
// by-document historical query leaves them out), and phase and status only when process_status asks; the grouped
// summary counts without building lawsuit objects.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { syncRoutes } from '../../src/sandbox/routes/sync.js';
import { call, sandbox } from './helpers.js';

describe('synchronous answers in bounded memory', () => {
  let sb: Sandbox;
  let entity: string;
  beforeAll(async () => {
    sb = await sandbox({ lawsuits: 20_000 });
    // The public entity with the most lawsuits.
    entity = sb.universe.entities.list.map((e) => e.document)
      .map((d) => [d, sb.universe.lawsuitsOfDocument(d).length] as const).sort((a, b) => b[1] - a[1])[0][0];
  });
  afterAll(async () => sb.close());

  test('the historical answer is a chunked stream of lawsuits without steps and attachments; phase and status on demand', async () => {
    const res = await fetch(`${sb.url}/lawsuits`, {
      method: 'POST', headers: { 'api-key': 'sandbox-key', 'content-type': 'application/json' },
      body: JSON.stringify({ search: { search_type: 'cnpj', search_key: entity } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    const body = (await res.json()) as any;
    expect(body.response_data.length).toBeGreaterThan(200);
    expect(body.has_lawsuits).toBe(true);
    for (const l of body.response_data) {
      expect(l).not.toHaveProperty('steps');
      expect(l).not.toHaveProperty('attachments');
      expect(l).not.toHaveProperty('phase');
      expect(l).not.toHaveProperty('status');
    }
    const withStatus = await call(sb, 'POST', '/lawsuits', { search: { search_type: 'cnpj', search_key: entity }, process_status: true });
    expect(withStatus.body.response_data.map((l: any) => l.code)).toEqual(body.response_data.map((l: any) => l.code));
    for (const l of withStatus.body.response_data) { expect(typeof l.phase).toBe('string'); expect(['Ativo', 'Finalizado']).toContain(l.status); }
  });

  test('the stream renders lawsuits only as it is read', () => {
    const route = syncRoutes(sb.state).find((r) => r.path === '/lawsuits')!;
    const render = sb.universe.render.bind(sb.universe);
    let rendered = 0;
    sb.universe.render = (...args) => { rendered++; return render(...args); };
    try {
      const reply = route.handle({ body: { search: { search_type: 'cnpj', search_key: entity } }, apiKey: 'sandbox-key', now: sb.state.clock.now() } as any) as any;
      expect(rendered).toBe(0);
      const pieces = reply.stream[Symbol.iterator]();
      pieces.next();
      pieces.next();
      const afterOne = rendered;
      expect(afterOne).toBeGreaterThan(0);
      expect(afterOne).toBeLessThan(100);
      let all = 0;
      for (let p = pieces.next(); !p.done; p = pieces.next()) all++;
      expect(rendered).toBeGreaterThan(afterOne * 5);
      expect(all).toBeGreaterThan(5);
    } finally {
      sb.universe.render = render;
    }
  });

  test('the grouped summary builds no lawsuit object and agrees with the historical answer', async () => {
    const render = sb.universe.render.bind(sb.universe);
    let rendered = 0;
    sb.universe.render = (...args) => { rendered++; return render(...args); };
    let grouped: any;
    try {
      grouped = (await call(sb, 'POST', '/requests/create/grouped', { search: { search_type: 'cnpj', search_key: entity } })).body;
    } finally {
      sb.universe.render = render;
    }
    expect(rendered).toBe(0);
    const lawsuits = (await call(sb, 'POST', '/lawsuits', { search: { search_type: 'cnpj', search_key: entity }, process_status: true })).body.response_data;
    expect(grouped.lawsuits_count).toBe(lawsuits.length);
    const tally = (values: string[]) => Object.fromEntries([...new Set(values)].map((v) => [v, values.filter((x) => x === v).length]));
    const asMap = (entries: Array<{ value: string; count: number }>) => Object.fromEntries(entries.map((e) => [e.value, e.count]));
    expect(asMap(grouped.phases)).toEqual(tally(lawsuits.map((l: any) => l.phase)));
    expect(asMap(grouped.classifications)).toEqual(tally(lawsuits.map((l: any) => l.classifications[0].name)));
    expect(asMap(grouped.tribunals)).toEqual(tally(lawsuits.map((l: any) => l.tribunal_acronym)));
  });
});
