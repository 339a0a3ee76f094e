import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/api/http.js';
import { AdaptiveLimiter } from '../../src/api/rate-limit.js';
import { ApiError } from '../../src/api/errors.js';
import { KEY, closedAfterEach, json, startStub, urlsOf } from './stub.js';

// After a 401 (or a 403 on its resource) nothing more is sent, and calls queued in the limiter fail at once,
// unsent. A call already on the wire is different: the provider may have acted on it (a submission bought
// before the key was revoked), so it ends with the provider's own answer. Called "not sent", the run would
// drop the submission's intent and buy it again.

const keep = closedAfterEach();

const call = (h: HttpClient, method: 'GET' | 'POST', path: string) =>
  h.call({ base: 'requests', method, path, route: `${method} ${path}`, parse: (b) => b }).then((r) => r.body, (e: unknown) => e as ApiError);

describe('a refusal while other calls are under way', () => {
  it('leaves the call already sent to its own answer, and fails the queued one unsent', async () => {
    let postArrived!: () => void;
    const arrived = new Promise<void>((r) => { postArrived = r; });
    const stub = keep(await startStub(async (_req, res, c) => {
      if (c.method === 'POST') {
        postArrived();
        await new Promise((r) => setTimeout(r, 300));
        return json(res, 200, { bought: true });
      }
      json(res, 401, { error: 'Unauthorized', message: 'revoked', code: 'INVALID_API_KEY' });
    }));
    // two calls at once from the start: the submission and the call that meets the 401; the third waits its turn
    const http = keep(new HttpClient({
      apiKey: KEY, urls: urlsOf(stub), limiter: new AdaptiveLimiter({ maxConcurrency: 2, initialConcurrency: 2 }), baseDelayMs: 5,
    }));
    const sent = call(http, 'POST', '/requests');
    await arrived;
    const [refused, queued] = await Promise.all([call(http, 'GET', '/requests'), call(http, 'GET', '/requests/r2')]);

    expect(refused).toMatchObject({ code: 'API_UNAUTHORIZED', statusCode: 401, notProcessed: false });
    expect(queued).toMatchObject({ code: 'API_UNAUTHORIZED', notProcessed: true });
    expect(await sent).toEqual({ bought: true });
    expect(stub.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /rq/requests', 'GET /rq/requests']);
  });
});
