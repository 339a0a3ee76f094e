import { describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { exitCodeOfError } from '../support/exit.js';
import { KEY, captureLogger, closedAfterEach, json, requestObject, startStub, urlsOf, type Stub } from './stub.js';

const keep = closedAfterEach();

function client(s: Stub, extra: Partial<ConstructorParameters<typeof LawsuitApi>[0]> = {}): LawsuitApi {
  return new LawsuitApi({ apiKey: KEY, urls: urlsOf(s), baseDelayMs: 20, maxDelayMs: 100, ...extra });
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected a failure');
}

describe('authentication', () => {
  it('sends the api-key header on every call to every base address and never logs it', async () => {
    const stub = keep(await startStub((req, res, call) => {
      // Spec "Authentication" 1: every endpoint needs the key; the stub refuses a call without it.
      if (req.headers['api-key'] !== KEY) return json(res, 401, { error: 'Unauthorized', message: 'bad key', code: 'INVALID_API_KEY' });
      if (call.path === '/rq/requests' && call.method === 'POST') return json(res, 200, requestObject());
      if (call.path === '/rq/responses') return json(res, 200, { request_status: 'completed', page: 1, page_count: 0, all_pages_count: 0, all_count: 0, page_data: [] });
      if (call.path === '/tk/tracking') return json(res, 200, { tracking_id: 'a1b2c3d4-0000-4000-8000-000000000001', status: 'created', recurrence: 7, search: {}, created_at: 'x' });
      if (call.path === '/ls/requests/count') return json(res, 200, { total: 3 });
      // Spec "Errors": a 5xx, retried, to make the log carry retry lines too.
      if (call.path === '/tf/transfer-file' && stub.calls.filter((c) => c.path === call.path).length === 1) return json(res, 503, { error: 'down' });
      if (call.path === '/tf/transfer-file') return json(res, 200, { page: 1, page_count: 0, all_count: 0, all_pages_count: 0, page_data: [] });
      return json(res, 404, { error: { name: 'NotFound', message: `no route; key was ${String(req.headers['api-key'])}`, data: [] } });
    }));
    const cap = captureLogger();
    const api = keep(client(stub, { logger: cap.logger }));
    const search = { search_type: 'cpf' as const, search_key: '092.065.297-22' };
    await api.requests.create(search);
    await api.responses.list({ request_id: 'r1' });
    await api.tracking.create(search, 7);
    await api.lawsuits.count({ search });
    await api.transfer.list({ status: ['completed'] });
    const notFound = await failure(api.requests.get('missing'));
    expect(notFound.code).toBe('API_NOT_FOUND');
    expect(notFound.message).not.toContain(KEY);
    expect(stub.calls.length).toBe(7);
    for (const c of stub.calls) expect(c.headers['api-key']).toBe(KEY);
    expect(cap.text()).toContain('POST /requests');
    expect(cap.text()).toContain('retrying');
    expect(cap.text()).not.toContain(KEY);
  });

  it('401 is terminal: API_UNAUTHORIZED, exit code 3, says what to check, no retry', async () => {
    // Spec "Authentication" 3 and "Errors": invalid key -> 401 with code INVALID_API_KEY.
    const stub = keep(await startStub((_req, res) => json(res, 401, { error: 'Unauthorized', message: 'Invalid API key', code: 'INVALID_API_KEY' })));
    const api = keep(client(stub));
    const e = await failure(api.requests.list({ page: 1, pageSize: 1 }));
    expect(e.code).toBe('API_UNAUTHORIZED');
    expect(exitCodeOfError(e)).toBe(EXIT.auth);
    expect(e.statusCode).toBe(401);
    expect(e.providerCode).toBe('INVALID_API_KEY');
    expect(e.transient).toBe(false);
    expect(e.message).toContain('LAWSUIT_API_KEY');
    expect(stub.calls.length).toBe(1);
  });

  it('403 is terminal: points at permission or quota, no retry even for a POST; again and again, API_FORBIDDEN, exit code 3', async () => {
    // Spec "Authentication" 4: no permission or limit exceeded -> 403 INSUFFICIENT_PERMISSIONS.
    const stub = keep(await startStub((_req, res) => json(res, 403, { error: 'Forbidden', message: 'quota', code: 'INSUFFICIENT_PERMISSIONS' })));
    const api = keep(client(stub));
    const e = await failure(api.requests.create({ search_type: 'cpf', search_key: '09206529722' }));
    // One 403 refuses its own call (a-403-refuses-its-own-call.test.ts); in a row, the resource.
    expect(e.code).toBe('API_FORBIDDEN_ONE');
    expect(e.message).toMatch(/permission/);
    expect(e.message).toMatch(/quota/);
    expect(e.message).toMatch(/provider/);
    expect(stub.calls.length).toBe(1);
    await failure(api.requests.create({ search_type: 'cpf', search_key: '09206529722' }));
    const third = await failure(api.requests.create({ search_type: 'cpf', search_key: '09206529722' }));
    expect(third.code).toBe('API_FORBIDDEN');
    expect(exitCodeOfError(third)).toBe(EXIT.auth);
    expect(stub.calls.length).toBe(3);
  });

  it('400 becomes API_VALIDATION with the provider reasons, not retried', async () => {
    // docs/dialect-and-spec-gaps.md, "Spec gaps": validation body {error: {name, message, data: [reasons]}}.
    const stub = keep(await startStub((_req, res) => json(res, 400, {
      error: { name: 'ValidationError', message: 'invalid', data: ['search.search_key: bad check digit'] },
    })));
    const api = keep(client(stub));
    const e = await failure(api.requests.create({ search_type: 'cpf', search_key: '11111111111' }));
    expect(e.code).toBe('API_VALIDATION');
    expect(e.reasons).toEqual(['search.search_key: bad check digit']);
    expect(e.message).toContain('bad check digit');
    expect(stub.calls.length).toBe(1);
  });

  it('a body of the wrong shape gives API_BAD_RESPONSE naming the field', async () => {
    // Spec "Request": request_id and status are always there; this stub leaves request_id out.
    const stub = keep(await startStub((_req, res) => json(res, 200, { status: 'pending', created_at: 'x', search: {} })));
    const api = keep(client(stub));
    const e = await failure(api.requests.get('r1'));
    expect(e.code).toBe('API_BAD_RESPONSE');
    expect(e.message).toContain('request_id');
  });

  it('a body that is not JSON gives API_BAD_RESPONSE', async () => {
    // A proxy answering HTML with 200.
    const stub = keep(await startStub((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>'); }));
    const api = keep(client(stub));
    const e = await failure(api.lawsuits.count({ search: { search_type: 'cpf', search_key: '09206529722' } }));
    expect(e.code).toBe('API_BAD_RESPONSE');
  });
});
