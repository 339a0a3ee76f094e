import type { HttpClient } from './http.js';
import { badResponse } from './errors.js';
import { StorageDownloader, type BodySink, type StorageDownloadOptions } from './storage-download.js';

// An attachment's file (REFERENCE.md, "Two levels"): `GET {lawsuits_url}/lawsuits/{cnj}/{instance}/attachments/{id}`,
// an API call like any other (the key, the rate limiter, the retry loop, its deadlines). The provider may answer the
// bytes themselves, or a redirect to a pre-signed storage address (docs/dialect-and-spec-gaps.md, "Attachments"):
// the address is followed by the storage downloader (no key, no limiter), and like any signed address it never
// reaches a log, an error message or the warehouse. Either way the bytes stream through the caller's sink.

interface AttachmentRef { code: string; instance: number; attachmentId: string }

const REDIRECTS = [301, 302, 303, 307, 308];

export class AttachmentsResource {
  private readonly storage: StorageDownloader;

  constructor(private readonly http: HttpClient, opts: StorageDownloadOptions = {}) {
    this.storage = new StorageDownloader(http, opts);
  }

  /**
   * The attachment's file through `sink`. A 404 (not ready, or unknown) and a 403 (secrecy) fail as the client's
   * typed errors (API_NOT_FOUND, API_SECRET_LAWSUIT); a body the sink refuses fails with the sink's error.
   */
  async download<T>(ref: AttachmentRef, sink: BodySink<T>, opts: { retries?: number; folder?: string } = {}): Promise<T> {
    const path = `/lawsuits/${encodeURIComponent(ref.code)}/${ref.instance}/attachments/${encodeURIComponent(ref.attachmentId)}`;
    const route = 'GET /lawsuits/:cnj/:instance/attachments/:id';
    const res = await this.http.call<{ sunk: T } | { redirect: true }>({
      base: 'lawsuits', method: 'GET', path, route, ok: [200, ...REDIRECTS], retries: opts.retries,
      sink: async (body, declared, headers) => ({ sunk: await sink(body, declared, headers) }),
      // A redirect's body says nothing (JSON, HTML or none): only its Location is read.
      parse: () => ({ redirect: true }), parseText: () => ({ redirect: true }),
    });
    if ('sunk' in res.body && res.status === 200) return res.body.sunk;
    const location = res.headers.location;
    if (!location) throw badResponse(route, 'a redirect without a Location', res.status);
    // A relative Location is on the API's own origin; the signed address is only ever handed to the downloader.
    const address = new URL(location, this.http.baseUrl('lawsuits')).href;
    return this.storage.download(address, sink, opts);
  }

  /** Cuts off a download still in flight and destroys the sockets. */
  async close(): Promise<void> {
    await this.storage.close();
  }
}
