import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import PQueue from 'p-queue';
import { EtlError } from '../shared/errors.js';
import { readEnvelope } from './envelope.js';
import { IntakeMetrics, type RefusalReason } from './metrics.js';
import type { SpoolWriter } from './spool-writer.js';

// The webhook intake's HTTP side (node:http): `POST /webhook/<secret>` takes one delivery, `GET /healthz` and
// `GET /metrics` say how it is doing. A delivery is answered 2xx only once it is in the spool (spool-writer.ts: on
// disk, fsynced); a wrong secret (403), a body that is not JSON (400), an envelope of an unknown kind (422) or a
// body over the size limit (413) is answered at once and writes nothing; a spool that cannot be written is a 503,
// which the provider retries. The secret is compared in constant time (hashes of both, timingSafeEqual), and
// never logged: a refusal is logged by reason and address.

export const WEBHOOK_PATH = '/webhook/';

interface IntakeOptions {
  spool: SpoolWriter;
  /** The secret the URL carries. */
  secret: string;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  port: number;
  host: string;
  log: Logger;
}

export interface Intake {
  /** The callback URL to give the provider (loopback form when listening on all interfaces), secret included. */
  url: string;
  port: number;
  metrics: IntakeMetrics;
  /** Stops taking connections, answers what was accepted, then closes the spool. */
  close(): Promise<void>;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export async function startIntake(o: IntakeOptions): Promise<Intake> {
  const metrics = new IntakeMetrics(o.spool);
  const expected = digest(o.secret);
  /** Every delivery being handled: closing waits for them (graceful SIGTERM: finish what was accepted). */
  const handling = new PQueue();
  const server = createServer((req, res) => {
    void handling.add(() => handle(req, res, { ...o, metrics, expected }).catch((e: unknown) => {
      o.log.error({ err: e }, 'the intake failed to answer a call');
      send(res, 500, { error: 'internal error' });
    }));
  });
  // A client that sends its headers or body slowly must not hold a socket for ever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new EtlError('INTAKE_LISTEN',
      `cannot listen on ${o.host} port ${o.port} (${e.code ?? e.message}): choose another LAWSUIT_CALLBACK_PORT / --port, or stop what holds it`, { usage: true, cause: e })));
    server.listen({ port: o.port, host: o.host }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = o.host === '0.0.0.0' ? '127.0.0.1' : o.host === '::' ? '[::1]' : o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}${WEBHOOK_PATH}${o.secret}`,
    port,
    metrics,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await handling.onIdle();
      server.closeAllConnections();
      await closed;
      await o.spool.close();
    },
  };
}

interface Handling extends IntakeOptions { metrics: IntakeMetrics; expected: Buffer }

async function handle(req: IncomingMessage, res: ServerResponse, h: Handling): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path.startsWith(WEBHOOK_PATH)) {
    if (req.method !== 'POST') return refuse(res, h, 405, undefined, 'deliveries are POSTed');
    // the path's token, compared whatever its length, in a time that does not depend on where it differs
    if (!timingSafeEqual(digest(tokenOf(path)), h.expected)) {
      h.log.warn({ event: 'intake.refused', reason: 'secret', remote: req.socket.remoteAddress }, 'a delivery to a wrong callback URL was refused (403)');
      return refuse(res, h, 403, 'secret', 'unknown callback URL');
    }
    return deliver(req, res, h);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, h, 405, undefined, 'only GET and HEAD here');
  if (path === '/metrics') {
    res.writeHead(200, { 'content-type': h.metrics.registry.contentType, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : await h.metrics.registry.metrics());
    return;
  }
  if (path === '/healthz') {
    const failed = h.spool.health.lastError;
    const problem = failed ? `the spool cannot be written: ${failed.message}` : undefined;
    const age = h.metrics.lastAgeSeconds();
    return send(res, problem ? 503 : 200, {
      status: problem ? 'failing' : 'ok', ...(problem ? { problem } : {}),
      spool_bytes: h.spool.bytes, spool_deliveries: h.spool.deliveries, last_delivery_age_seconds: age === undefined ? null : Math.round(age),
    });
  }
  send(res, 404, { error: `not found: deliveries go to ${WEBHOOK_PATH}<secret>; /healthz and /metrics are served here` });
}

/** The token of a delivery's path, as the secret was written (an undecodable one matches nothing). */
function tokenOf(path: string): string {
  try {
    return decodeURIComponent(path.slice(WEBHOOK_PATH.length));
  } catch {
    return '';
  }
}

/** One delivery: its body read within the limit, checked, written to the spool, answered. */
async function deliver(req: IncomingMessage, res: ServerResponse, h: Handling): Promise<void> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > h.maxBytes) return refuse(res, h, 413, 'too_large', `a delivery is at most ${h.maxBytes} bytes`);
  const body = await readBody(req, h.maxBytes);
  if (body === undefined) return refuse(res, h, 413, 'too_large', `a delivery is at most ${h.maxBytes} bytes`);
  const t0 = performance.now();
  const text = body.toString('utf8');
  const env = readEnvelope(text);
  if (!env.ok) {
    h.log.warn({ event: 'intake.refused', reason: env.reason, detail: env.detail }, `a delivery was refused (${env.status}): ${env.detail}`);
    return refuse(res, h, env.status, env.reason, env.detail);
  }
  let outcome;
  try {
    outcome = await h.spool.append(env.delivery, text, new Date());
  } catch (e) {
    h.log.error({ event: 'intake.spool_failed', err: e }, 'a delivery could not be written to the spool: answered 503, the provider retries');
    return refuse(res, h, 503, 'spool', 'the delivery could not be stored: try again');
  }
  h.metrics.deliveries.inc({ reference_type: env.delivery.referenceType, outcome });
  if (outcome === 'written') h.metrics.bytes.inc(body.length);
  h.metrics.accepted();
  h.metrics.seconds.observe((performance.now() - t0) / 1000);
  send(res, 200, { ok: true, duplicate: outcome === 'duplicate' });
}

/** The body, or undefined once it passes `max` bytes (the rest is not read: the connection is closed after the answer). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

function refuse(res: ServerResponse, h: Handling, status: number, reason: RefusalReason | undefined, message: string): void {
  if (reason) h.metrics.refused.inc({ reason });
  // A refused body may still be on its way: the connection is not reused for it.
  if (status === 413 || status === 403) res.setHeader('connection', 'close');
  send(res, status, { error: message });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}
