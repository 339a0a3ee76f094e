import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { afterEach } from 'vitest';
import { REDACT_PATHS } from '../../src/shared/logger.js';

// A tiny stand-in for the service: each test gives the routes it needs, each saying which spec case it exists
// for. Every call is recorded (method, path, query, headers, body) so tests can assert what was sent.

export interface Recorded { method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers']; body: unknown }
export type Handler = (req: IncomingMessage, res: ServerResponse, call: Recorded) => void | Promise<void>;

export interface Stub { url: string; port: number; calls: Recorded[]; server: Server; close(): Promise<void> }

export async function startStub(handler: Handler, port = 0): Promise<Stub> {
  const calls: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://stub');
      const text = Buffer.concat(chunks).toString('utf8');
      const call: Recorded = { method: req.method ?? '', path: u.pathname, query: u.searchParams, headers: req.headers, body: text ? JSON.parse(text) : undefined };
      calls.push(call);
      Promise.resolve(handler(req, res, call)).catch((e: unknown) => {
        res.statusCode = 599;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const p = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${p}`, port: p, calls, server,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/**
 * Everything a test opens is closed after it, so that no test leaks a socket or a server into the next. Call once
 * per file; the function it returns registers what a test opens (and hands it back unchanged). After each test the
 * registered objects are closed one at a time in reverse order of opening, clients before the servers they call.
 */
export function closedAfterEach(): <T extends { close(): Promise<unknown> }>(x: T) => T {
  let open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    const closing = open.reverse();
    open = [];
    for (const x of closing) await x.close();
  });
  return (x) => { open.push(x); return x; };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The four base addresses on one stub, each with its own prefix, as a deployment might have them. */
export function urlsOf(stub: Stub): { requests: string; tracking: string; lawsuits: string; transfer: string } {
  return { requests: `${stub.url}/rq`, tracking: `${stub.url}/tk`, lawsuits: `${stub.url}/ls`, transfer: `${stub.url}/tf` };
}

/** A pino logger at trace level writing into a string, with the project's redaction. */
export function captureLogger(): { logger: Logger; text: () => string } {
  let out = '';
  const sink = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } });
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
  return { logger, text: () => out };
}

export const KEY = 'secret-key-5f0c1d9e';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

export const REQUEST_ID = '7b0a3c52-1d2e-4f6a-9b8c-0d1e2f3a4b5c';

export function requestObject(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    request_id: REQUEST_ID, status: 'pending', origin: 'api', created_at: new Date().toISOString(),
    search: { search_type: 'cpf', search_key: '09206529722', response_type: 'lawsuit', search_params: { filter: {}, pagination: {} } },
    ...over,
  };
}
