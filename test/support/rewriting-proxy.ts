import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A hostile proxy between the pipeline and an upstream (the sandbox): it forwards every call, and lets a test
// rewrite what comes back — a JSON body (a key echoed in a payload, a list sent as an object, a response id
// listed twice, a listing announcing a billion pages), a header (a provider's Date a day ahead), or the status
// of an answer once the upstream has acted on the call (a POST's answer lost). Transfer downloads and anything
// the test leaves alone pass through unchanged. It listens on 127.0.0.1 at a port the system picks and cuts
// every socket when closed.

/** The call as the proxy saw it. */
export interface ProxiedCall {
  method: string;
  /** The path below the upstream's base, e.g. `/responses`. */
  path: string;
  query: URLSearchParams;
}

/** The upstream's answer, its body read whole as text. */
export interface ProxiedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the proxy sends back instead: the answer changed (or the same object), or `drop` to cut the socket. */
export type Rewrite = (call: ProxiedCall, answer: ProxiedAnswer) => ProxiedAnswer | 'drop';

export interface RewritingProxy {
  /** The proxy's base address, standing for the upstream's. */
  url: string;
  /** Every call forwarded, in order. */
  calls: ProxiedCall[];
  close(): Promise<void>;
}

export async function startRewritingProxy(upstreamUrl: string, rewrite: Rewrite): Promise<RewritingProxy> {
  const upstream = new URL(upstreamUrl);
  const basePath = upstream.pathname.replace(/\/$/, '');
  const calls: ProxiedCall[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://proxy');
    const call: ProxiedCall = { method: req.method ?? 'GET', path: u.pathname.slice(basePath.length) || '/', query: u.searchParams };
    calls.push(call);
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: `${u.pathname}${u.search}`, headers: req.headers }, (answer) => {
      const isJson = String(answer.headers['content-type'] ?? '').includes('json');
      if (!isJson) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const got: ProxiedAnswer = { status: answer.statusCode ?? 502, headers: { ...answer.headers }, body: Buffer.concat(chunks).toString('utf8') };
        const sent = rewrite(call, got);
        if (sent === 'drop') {
          req.socket.destroy();
          return;
        }
        const headers: IncomingHttpHeaders = { ...sent.headers, 'content-length': String(Buffer.byteLength(sent.body)) };
        delete headers['transfer-encoding'];
        res.writeHead(sent.status, headers as Record<string, string>);
        res.end(sent.body);
      });
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`,
    calls,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}
