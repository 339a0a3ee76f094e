import { afterEach, describe, expect, it } from 'vitest';
import { CrashSignal, type TransferApi } from '../../src/pipeline/transfer.js';
import { DIALECTS, type Dialect } from '../../src/sandbox/dialect.js';
import { harness, type Harness } from './helpers.js';

// The provider's documentation names two vocabularies of transfer-file statuses: pending, available, consumed on
// one page; completed, error, downloaded on another (REFERENCE.md). A loaded file is marked taken in the vocabulary
// its listing speaks — `consumed` where it said available, `downloaded` where it said completed — and a provider
// that refuses that word as invalid is sent the other once. The warehouse keeps the word the provider took.

let h: Harness | undefined;
afterEach(async () => { await h?.close(); h = undefined; });

/** The client, recording the status each PATCH sends and what the provider answered. */
function recording(api: Harness['api']): { api: TransferApi; sent: Array<[string, number | 'ok']> } {
  const sent: Array<[string, number | 'ok']> = [];
  return {
    sent,
    api: {
      walk: (q, o) => api.walk(q, o), get: (id) => api.get(id), download: (u, p, o) => api.download(u, p, o),
      patch: async (id, status, message) => {
        try {
          const r = await api.patch(id, status, message);
          sent.push([status, 'ok']);
          return r;
        } catch (e) {
          sent.push([status, (e as { statusCode: number }).statusCode]);
          throw e;
        }
      },
    },
  };
}

const remoteStatuses = async (x: Harness) => (await x.wh.all<{ status: string; remote_status: string }>(
  'SELECT DISTINCT status, remote_status FROM transfer_files ORDER BY ALL'));

describe('a transfer file is marked in its listing\'s vocabulary', () => {
  it('consumed where the listing says available (the documented dialect)', async () => {
    h = await harness({ dialect: DIALECTS.documented, catalogue: { count: 3, errorCount: 0, maxBytes: 32 * 1024 } });
    const r = recording(h.api);
    expect(await h.run({ api: r.api })).toMatchObject({ listed: 3, loaded: 3, failed: [] });
    expect(r.sent).toEqual([['consumed', 'ok'], ['consumed', 'ok'], ['consumed', 'ok']]);
    expect(await remoteStatuses(h)).toEqual([{ status: 'downloaded', remote_status: 'consumed' }]);
    // and the provider's listing now shows them taken, in its own words
    const listed = [];
    for await (const f of h.api.walk({})) listed.push(f.status);
    expect(listed).toEqual(['consumed', 'consumed', 'consumed']);
  });

  it('downloaded where the listing says completed (the spec\'s reading)', async () => {
    h = await harness({ dialect: DIALECTS.spec, catalogue: { count: 2, errorCount: 0, maxBytes: 32 * 1024 } });
    const r = recording(h.api);
    expect(await h.run({ api: r.api })).toMatchObject({ loaded: 2, failed: [] });
    expect(r.sent).toEqual([['downloaded', 'ok'], ['downloaded', 'ok']]);
    expect(await remoteStatuses(h)).toEqual([{ status: 'downloaded', remote_status: 'downloaded' }]);
  });

  it('the other vocabulary\'s word when the provider refuses the one its listing uses, the refused word not sent again that run', async () => {
    const strict: Dialect = { ...DIALECTS.documented, transfer: { ...DIALECTS.documented.transfer, patchStatuses: { downloaded: 'downloaded', error: 'error' } } };
    h = await harness({ dialect: strict, catalogue: { count: 2, errorCount: 0, maxBytes: 32 * 1024 } });
    const r = recording(h.api);
    expect(await h.run({ api: r.api })).toMatchObject({ loaded: 2, failed: [], patchedLate: 0 });
    expect(r.sent).toEqual([['consumed', 400], ['downloaded', 'ok'], ['downloaded', 'ok']]);
    expect(await remoteStatuses(h)).toEqual([{ status: 'downloaded', remote_status: 'downloaded' }]);
  });

  it('a PATCH left by a crash after the load goes out on the next run in the same vocabulary', async () => {
    h = await harness({ dialect: DIALECTS.documented, catalogue: { count: 2, errorCount: 0, maxBytes: 32 * 1024 } });
    await expect(h.run({ onLoaded: () => { throw new CrashSignal('killed'); } })).rejects.toBeInstanceOf(CrashSignal);
    expect(await remoteStatuses(h)).toEqual([{ status: 'loaded', remote_status: 'available' }]);
    const r = recording(h.api);
    expect(await h.run({ api: r.api, runId: 'run-2' })).toMatchObject({ patchedLate: 1, loaded: 1, failed: [] });
    expect(r.sent).toEqual([['consumed', 'ok'], ['consumed', 'ok']]);
    expect(await remoteStatuses(h)).toEqual([{ status: 'downloaded', remote_status: 'consumed' }]);
  });
});
