import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// An upstream whose rate limit follows the provider's documentation (REFERENCE.md, "The provider's documented
// dialect"): a sliding window of `limit` calls per `windowMs`, refused calls counted against it too, no
// X-RateLimit-Reset and no Retry-After. `headers` says what its answers carry: 'limit-remaining' sends only
// X-RateLimit-Limit and -Remaining, on 200 answers as documented; 'none' sends no rate header at all. Every
// path answers the same small JSON body: the bench measures the pace, not the reading of the body.

export type RateDialect = 'limit-remaining' | 'none';

export interface DocumentedUpstream {
  url: string;
  counters(): { calls: number; status429: number };
  close(): Promise<void>;
}

export async function startDocumentedUpstream(opts: { limit: number; windowMs: number; headers: RateDialect }): Promise<DocumentedUpstream> {
  const window: number[] = [];
  let calls = 0;
  let status429 = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    const now = Date.now();
    while (window.length > 0 && window[0] <= now - opts.windowMs) window.shift();
    const allowed = window.length < opts.limit;
    // Refused or not, the call enters the window (the documentation: 401 and 429 count too).
    window.push(now);
    calls++;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!allowed) {
      status429++;
      res.writeHead(429, headers).end(JSON.stringify({ error: { name: 'HttpTooManyRequestsError', message: 'Too many requests', data: [] } }));
      return;
    }
    if (opts.headers === 'limit-remaining') {
      headers['x-ratelimit-limit'] = String(opts.limit);
      headers['x-ratelimit-remaining'] = String(Math.max(0, opts.limit - window.length));
    }
    res.writeHead(200, headers).end('{"page":1,"page_count":0,"all_pages_count":0,"all_count":0,"page_data":[]}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counters: () => ({ calls, status429 }),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
