import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// An upstream that trickles: the answer's headers at once, then one byte of its body every 20 s, so that no
// body ever ends within a test (an adversarial proxy found a night held for ever by exactly that). Both servers
// listen on 127.0.0.1 at a port the system picks, count what they trickle, let a test wait for the next trickle
// as an event, and cut every socket when closed.

/** One byte every this many ms: far beyond any deadline a test configures. */
export const TRICKLE_EVERY_MS = 20_000;

export interface Trickler {
  url: string;
  /** Answers trickled so far. */
  trickled(): number;
  /** Resolves when `n` answers in all have started trickling. */
  whenTrickled(n?: number): Promise<void>;
  close(): Promise<void>;
}

interface Base {
  server: Server;
  trickle(res: ServerResponse, status: number, headers: Record<string, string | string[] | undefined>, body: Buffer): void;
  trickler(): Omit<Trickler, 'url'>;
}

function base(handler: (req: IncomingMessage, res: ServerResponse, b: Base) => void): Base {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let count = 0;
  const b: Base = {
    server: createServer((req, res) => handler(req, res, b)),
    trickle(res, status, headers, body) {
      count++;
      for (const w of waiters.filter((x) => count >= x.n)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
      // The whole length announced, so that the client waits for every byte; the first one sent at once.
      const out: Record<string, string | string[] | undefined> = { ...headers, 'content-length': String(Math.max(body.length, 2)) };
      delete out['transfer-encoding'];
      // A 204 has no body to trickle: it becomes a 200 with one (every caller here takes both).
      res.writeHead(status === 204 ? 200 : status, out);
      const bytes = body.length >= 2 ? body : Buffer.from('{}');
      let sent = 0;
      const drip = (): void => {
        if (res.destroyed || sent >= bytes.length) return;
        res.write(bytes.subarray(sent, sent + 1));
        sent++;
        const t = setTimeout(() => { timers.delete(t); drip(); }, TRICKLE_EVERY_MS);
        timers.add(t);
      };
      drip();
    },
    trickler: () => ({
      trickled: () => count,
      whenTrickled: (n = count + 1) => (count >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
      close: () => new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        b.server.close(() => resolve());
      }),
    }),
  };
  b.server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  return b;
}

async function listen(b: Base): Promise<string> {
  await new Promise<void>((resolve) => b.server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`;
}

/** A server whose every answer trickles: `status` and a JSON body of `body`. */
export async function startTrickleServer(opts: { status?: number; body?: string } = {}): Promise<Trickler> {
  const b = base((req, res, self) => {
    req.resume();
    req.on('end', () => self.trickle(res, opts.status ?? 200, { 'content-type': 'application/json' }, Buffer.from(opts.body ?? '{"page_data":[]}')));
  });
  return { url: await listen(b), ...b.trickler() };
}

/**
 * A proxy in front of `upstream` that passes every call through, but trickles the answer of those `chosen`
 * picks: the call reaches the upstream (which acts on it: a request is created, a file marked), and its answer
 * comes back at a byte every 20 s. The Host header is passed on, so that addresses the upstream builds from it
 * (a download's) point at the proxy too.
 */
export async function startTrickleProxy(upstream: string, chosen: (method: string, path: string) => boolean): Promise<Trickler> {
  const target = new URL(upstream);
  const b = base((req, res, self) => {
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const path = (req.url ?? '/').split('?')[0];
        if (chosen(req.method ?? 'GET', path)) self.trickle(res, answer.statusCode ?? 200, answer.headers, Buffer.concat(chunks));
        else {
          res.writeHead(answer.statusCode ?? 200, answer.headers);
          res.end(Buffer.concat(chunks));
        }
      });
    });
    up.on('error', () => { if (!res.headersSent) res.writeHead(502); res.end(); });
    req.pipe(up);
  });
  return { url: await listen(b), ...b.trickler() };
}
