// Attachments (REFERENCE.md, "Two levels"): a lawsuit_cnj read asked `with_attachments` lists each attachment with
// its id, step, extension and status; a read without leaves the list out. Its file is asked for at
// /lawsuits/{cnj}/{instance}/attachments/{id}, which redirects to a pre-signed storage address serving a valid
// PDF, the same bytes on every call; a file not ready is a 404, an altered address a 403. The fault switches spoil
// the file as the client must survive: cut, longer than announced, refused, big.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, KEY, sandbox, waitFinished } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => { sb = await sandbox({ lawsuits: 400 }); });
afterAll(async () => { await sb.close(); });

/** A lawsuit_cnj read's lawsuits, with or without attachments. */
async function read(code: string, withAttachments: boolean): Promise<any[]> {
  const post = await call(sb, 'POST', '/requests', { search: { search_type: 'lawsuit_cnj', search_key: code }, ...(withAttachments ? { with_attachments: true } : {}) });
  expect(post.status).toBe(200);
  await waitFinished(sb, post.body.request_id);
  const r = await call(sb, 'GET', `/responses?request_id=${post.body.request_id}&page_size=100`);
  return r.body.page_data.map((i: any) => i.response_data);
}

/** The lawsuits of the universe with attachments, as the introspection sees them (whole, privileged). */
function withFiles(): Array<{ code: string; instance: number; secrecy_level: number; attachments: any[] }> {
  const out = [];
  for (let i = 0; i < sb.universe.count; i++) {
    const l = sb.universe.lawsuit(i, sb.state.clock.now(), { onDemand: true, shape: 'full', privileged: true, withAttachments: true }) as any;
    if (l?.attachments?.length) out.push(l);
  }
  return out;
}

async function file(code: string, instance: number, id: string): Promise<{ status: number; location?: string; bytes?: Buffer }> {
  const r = await fetch(`${sb.url}/lawsuits/${code}/${instance}/attachments/${id}`, { headers: { 'api-key': KEY }, redirect: 'manual' });
  const location = r.headers.get('location') ?? undefined;
  await r.arrayBuffer();
  if (r.status !== 302) return { status: r.status };
  const f = await fetch(location!);
  return { status: f.status, location, bytes: Buffer.from(await f.arrayBuffer()) };
}

/** A PDF whose cross-reference table points at its objects, ending %%EOF. */
function expectPdf(b: Buffer): void {
  const text = b.toString('latin1');
  expect(text.startsWith('%PDF-1.')).toBe(true);
  expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  const startxref = Number(/startxref\n(\d+)/.exec(text)![1]);
  expect(text.slice(startxref, startxref + 4)).toBe('xref');
  const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
  expect(offsets).toHaveLength(5);
  offsets.forEach((o, k) => expect(text.slice(o, o + `${k + 1} 0 obj`.length)).toBe(`${k + 1} 0 obj`));
}

describe('attachments of a lawsuit-level read', () => {
  test('listed with id, step, extension and status when asked, left out when not', async () => {
    const l = withFiles().find((x) => x.secrecy_level === 0)!;
    const asked = (await read(l.code, true)).find((x) => x.instance === l.instance);
    expect(asked.attachments.length).toBeGreaterThan(0);
    for (const a of asked.attachments) {
      expect(a).toMatchObject({ attachment_id: expect.any(String), step_id: expect.any(String), extension: 'pdf' });
      expect(['done', 'pending']).toContain(a.status);
      expect(asked.steps.map((s: any) => s.step_id)).toContain(a.step_id);
    }
    const plain = (await read(l.code, false)).find((x) => x.instance === l.instance);
    expect(plain).not.toHaveProperty('attachments');
  });

  test('a ready file redirects to a pre-signed address serving a valid PDF, the same bytes every time', async () => {
    const lawsuits = withFiles().filter((x) => x.secrecy_level === 0).slice(0, 5);
    let served = 0;
    for (const l of lawsuits) {
      for (const a of l.attachments.filter((x: any) => x.status === 'done')) {
        const one = await file(l.code, l.instance, a.attachment_id);
        expect(one.status).toBe(200);
        expect(new URL(one.location!).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
        expectPdf(one.bytes!);
        expect((await file(l.code, l.instance, a.attachment_id)).bytes!.equals(one.bytes!)).toBe(true);
        served++;
      }
    }
    expect(served).toBeGreaterThan(2);
  });

  test('a pending file is a 404, a secret lawsuit\'s a 403, an altered address a 403', async () => {
    const all = withFiles();
    const pending = all.flatMap((l) => l.attachments.filter((a: any) => a.status === 'pending').map((a: any) => ({ l, a })))
      .find(({ l }) => l.secrecy_level === 0)!;
    expect((await file(pending.l.code, pending.l.instance, pending.a.attachment_id)).status).toBe(404);
    const secret = all.find((l) => l.secrecy_level > 0 && l.attachments.some((a: any) => a.status === 'done'));
    if (secret) expect((await file(secret.code, secret.instance, secret.attachments.find((a: any) => a.status === 'done').attachment_id)).status).toBe(403);
    const l = all.find((x) => x.secrecy_level === 0 && x.attachments.some((a: any) => a.status === 'done'))!;
    const a = l.attachments.find((x: any) => x.status === 'done');
    const r = await fetch(`${sb.url}/lawsuits/${l.code}/${l.instance}/attachments/${a.attachment_id}`, { headers: { 'api-key': KEY }, redirect: 'manual' });
    const altered = r.headers.get('location')!.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 1}`);
    expect((await fetch(altered)).status).toBe(403);
  });

  test('fault switches: a cut body, a body longer than announced, a refusal, a big file', async () => {
    const l = withFiles().find((x) => x.secrecy_level === 0 && x.attachments.some((a: any) => a.status === 'done'))!;
    const a = l.attachments.find((x: any) => x.status === 'done');
    const natural = (await file(l.code, l.instance, a.attachment_id)).bytes!;
    const locate = async () => (await fetch(`${sb.url}/lawsuits/${l.code}/${l.instance}/attachments/${a.attachment_id}`, { headers: { 'api-key': KEY }, redirect: 'manual' })).headers.get('location')!;
    /** The raw bytes after the headers until the connection closes, and the Content-Length announced. */
    const raw = async (address: string): Promise<{ announced: number; body: number }> => {
      const u = new URL(address);
      const chunks: Buffer[] = [];
      await new Promise<void>((resolve) => {
        const s = connect(Number(u.port), u.hostname, () => s.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\n\r\n`));
        s.on('data', (c) => chunks.push(c)).on('close', () => resolve()).on('error', () => resolve());
      });
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      return { announced: Number(/content-length: (\d+)/i.exec(all.subarray(0, end).toString())![1]), body: all.length - end - 4 };
    };
    sb.setFaults('attachment_cut=1');
    const cut = await raw(await locate());
    expect(cut.announced).toBe(natural.length);
    expect(cut.body).toBeLessThan(natural.length);
    sb.setFaults('attachment_long=1');
    const long = await raw(await locate());
    expect(long.body).toBeGreaterThan(long.announced);
    sb.setFaults('attachment_403=1');
    expect((await file(l.code, l.instance, a.attachment_id)).status).toBe(403);
    sb.setFaults('attachment_big=1:300000');
    const big = await file(l.code, l.instance, a.attachment_id);
    expect(big.bytes!.length).toBe(300000);
    expectPdf(big.bytes!);
    sb.setFaults('');
  });
});
