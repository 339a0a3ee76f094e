// The attachment files (REFERENCE.md, "Two levels"): `GET /lawsuits/{cnj}/{instance}/attachments/{attachment_id}`
// is an API route (key, rate limit, counters, the call faults) that answers where the file is: a redirect (302) to a
// pre-signed storage address, valid five minutes, which needs no key and does not count against the rate limit, as
// the transfer files' downloads do. A file not ready yet (its status pending, or unknown) is a 404; a lawsuit under
// secrecy is a 403. The storage address serves the bytes (attachments/pdf.ts) and is where the attachment fault
// switches strike (faults.ts): a slow body, a body cut half-way, a body longer than its Content-Length, a big file.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { CallContext, Reply, RouteDef, RouteModule, SandboxState } from '../context.js';
import { attachmentPoints, levelSeen, type AttachmentPoint } from '../lawsuit-object.js';
import type { Plan } from '../plan.js';
import { attachmentPdf } from './pdf.js';

const ADDRESS_MS = 5 * 60_000;

interface Found { plan: Plan; point: AttachmentPoint }

/** The attachment `id` of the lawsuit `cnj` in `instance` as it stands at `now`, if it exists. */
function findAttachment(state: SandboxState, cnj: string, instance: number, id: string, now: number): Found | undefined {
  for (const i of state.universe.lawsuitsOfCnj(cnj)) {
    const o = state.universe.observe(i, now, true);
    if (!o || o.plan.instance !== instance || !o.plan.hasAttachments) continue;
    const point = attachmentPoints(state.options.seed, o.plan, o.steps).find((a) => a.id === id);
    if (point) return { plan: o.plan, point };
  }
  return undefined;
}

const notFound = (message: string): Reply => ({ status: 404, body: { error: { name: 'NotFound', message, data: [] } } });

function secretOf(state: SandboxState): Buffer {
  return createHash('sha256').update(`attachments|${state.options.seed}|${state.options.bootId}`).digest();
}

function signature(secret: Buffer, path: string, expires: number): string {
  return createHmac('sha256', secret).update(`${path}|${expires}`).digest('hex');
}

function fileAddress(state: SandboxState, cnj: string, instance: number, id: string, now: number): string {
  const path = `/_attachment-files/${encodeURIComponent(cnj)}/${instance}/${encodeURIComponent(id)}`;
  const expires = now + ADDRESS_MS;
  return `${state.baseUrl()}${path}?expires=${expires}&X-Amz-Signature=${signature(secretOf(state), path, expires)}`;
}

function locate(ctx: CallContext): Reply {
  const { state, params, now } = ctx;
  const instance = Number(params.instance);
  const found = Number.isInteger(instance) ? findAttachment(state, params.cnj, instance, params.id, now) : undefined;
  if (!found) return notFound('attachment not found');
  if (levelSeen(found.plan.secrecy, false) > 0 || state.faults.forAttachment(params.id).refused) {
    return { status: 403, body: { error: { name: 'Forbidden', message: 'The lawsuit is under secrecy: a credential is required', data: ['SECRET_LAWSUIT_WITHOUT_CREDENTIAL'] } } };
  }
  if (now < found.point.readyMs) return notFound('attachment not ready: it is still being fetched from the court');
  return { status: 302, headers: { location: fileAddress(state, params.cnj, instance, params.id, now) }, body: { status: 'redirect' } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes `pieces` to `res`, each waited for; `stopAt` bytes: the connection dropped there (a cut body). */
async function sendPieces(res: ServerResponse, pieces: Iterable<Buffer>, slowMs: number, stopAt: number | undefined): Promise<void> {
  let sent = 0;
  for (let piece of pieces) {
    if (stopAt !== undefined && sent + piece.length >= stopAt) {
      piece = piece.subarray(0, stopAt - sent);
      await new Promise<void>((r) => res.write(piece, () => r()));
      res.socket?.destroy();
      return;
    }
    if (!res.write(piece)) await new Promise((r) => res.once('drain', r));
    sent += piece.length;
    if (slowMs > 0) await sleep(slowMs);
    if (res.destroyed) return;
  }
}

async function serveFile(ctx: CallContext): Promise<Reply> {
  const { state, params, url, res, now } = ctx;
  const instance = Number(params.instance);
  const path = `/_attachment-files/${encodeURIComponent(params.cnj)}/${instance}/${encodeURIComponent(params.id)}`;
  const expires = Number(url.searchParams.get('expires'));
  const sig = url.searchParams.get('X-Amz-Signature') ?? '';
  const want = Buffer.from(signature(secretOf(state), path, expires), 'hex');
  const given = /^[0-9a-f]{64}$/.test(sig) ? Buffer.from(sig, 'hex') : Buffer.alloc(0);
  if (given.length !== want.length || !timingSafeEqual(want, given) || now > expires) {
    return { status: 403, body: { error: { name: 'AccessDenied', message: 'signature missing, altered or expired', data: [] } } };
  }
  const found = findAttachment(state, params.cnj, instance, params.id, now);
  if (!found) return notFound('attachment not found');
  const f = state.faults.forAttachment(params.id);
  const file = attachmentPdf({ seed: state.options.seed, code: found.plan.code, instance, id: params.id, name: found.point.name }, f.bigBytes);
  // A body longer than announced: the Content-Length says 100 bytes fewer than are sent. The checksum is the whole
  // object's, as object storage gives it (x-amz-checksum-sha256).
  const announced = f.long ? Math.max(1, file.bytes - 100) : file.bytes;
  const sum = createHash('sha256');
  for (const piece of file.pieces()) sum.update(piece);
  res.writeHead(200, {
    'content-type': 'application/pdf', 'content-length': String(announced), 'x-amz-checksum-sha256': sum.digest('base64'), ...(f.long ? { connection: 'close' } : {}),
  });
  if (f.long) {
    // Written on the socket past the response's own accounting, as a broken upstream would.
    res.flushHeaders();
    for (const piece of file.pieces()) res.socket?.write(piece);
    res.socket?.end();
    return { status: 200, handled: true };
  }
  await sendPieces(res, file.pieces(), f.slowMs, f.cut ? Math.floor(file.bytes / 2) : undefined);
  if (!res.destroyed) res.end();
  return { status: 200, handled: true };
}

export const attachmentRoutes: RouteModule = (): RouteDef[] => [
  { method: 'GET', path: '/lawsuits/:cnj/:instance/attachments/:id', api: true, handle: locate },
  { method: 'GET', path: '/_attachment-files/:cnj/:instance/:id', api: false, handle: serveFile },
];
