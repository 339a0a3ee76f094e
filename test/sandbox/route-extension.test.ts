// An added route module gets api-key auth, rate-limit headers, counters and faults without code of its own.
import { afterEach, describe, expect, test } from 'vitest';
import type { RouteModule } from '../../src/sandbox/context.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

const echo: RouteModule = () => [
  { method: 'POST', path: '/echo/:id', api: true, mutates: true, handle: ({ params, body }) => ({ status: 200, body: { id: params.id, body } }) },
];

describe('route extension', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('an extra route is authenticated, rate-limited, counted and fault-injected', async () => {
    sb = await sandbox({ extraRoutes: [echo], rateLimit: 2 });
    const ok = await call(sb, 'POST', '/echo/7', { a: 1 });
    expect(ok.body).toEqual({ id: '7', body: { a: 1 } });
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('1');
    // A call without a key is refused and counts against its own (anonymous) budget, not the key's.
    expect((await call(sb, 'POST', '/echo/7', {}, null)).status).toBe(401);
    expect((await call(sb, 'POST', '/echo/7', {})).status).toBe(200);
    expect((await call(sb, 'POST', '/echo/7', {})).status).toBe(429);
    expect(sb.counters().by_endpoint['POST /echo/:id']).toEqual({ 200: 2, 401: 1, 429: 1 });
    sb.setFaults('post_after_store=1');
    sb.state.limiter.reset();
    expect((await call(sb, 'POST', '/echo/7', {})).status).toBe(500);
    // Literal routes still win over parameters of the built-in ones.
    expect((await call(sb, 'GET', '/requests/x', undefined, 'other')).status).toBe(401);
  });
});

describe('routes that write their own answer', () => {
  test('a handled reply streams its own body and still carries the rate-limit headers and counters', async () => {
    const stream: RouteModule = () => [{
      method: 'GET', path: '/raw', api: true,
      handle: ({ res }) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end('a,b\n1,2\n');
        return { status: 200, handled: true };
      },
    }];
    const sb = await sandbox({ extraRoutes: [stream] });
    try {
      const r = await fetch(`${sb.url}/raw`, { headers: { 'api-key': 'sandbox-key' } });
      expect(await r.text()).toBe('a,b\n1,2\n');
      expect(r.headers.get('content-type')).toBe('text/csv');
      expect(r.headers.get('x-ratelimit-limit')).not.toBeNull();
      expect(sb.counters().by_endpoint['GET /raw']).toEqual({ 200: 1 });
    } finally {
      await sb.close();
    }
  });
});
