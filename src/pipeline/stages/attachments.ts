import PQueue from 'p-queue';
import { API_CODES } from '../../api/errors.js';
import { failpoint } from '../../shared/failpoint.js';
import { attachmentFigures, dueAttachments, recordListedPending, recordNotStored, recordStored, type DueAttachment, type NotStored } from '../../warehouse/attachment-ledger.js';
import { AttachmentRefused, AttachmentStore, type StoredFile } from '../attachments/file-store.js';
import type { RunContext } from '../context.js';
import type { NightData, Stage, StageReport } from '../stage.js';

// The attachments' files (docs/warehouse.md, "Attachments"), after the night's loads: every attachment listed by a
// lawsuit-level read asked `with_attachments` whose file is not stored yet and is due (attachment-ledger.ts) is
// downloaded, under the client's rate limiter and deadlines, streamed to the content-addressed store
// (attachments/file-store.ts), and its outcome recorded at once. A file that is not ready, refused, too large or
// broken is recorded with its reason and asked for again on a later night (a backoff in days): data about the
// attachment, never a failure of the night.

/** Downloads at once: the API call waits its turn in the limiter, the storage's body does not count against it. */
const DOWNLOADS_AT_ONCE = 4;

export const attachmentsStage: Stage = {
  name: 'attachments',
  needs: [],
  callsApi: true,
  skipReason: (ctx, night) => (asked(ctx, night) ? undefined : 'no attachment asked for: LAWSUIT_WITH_ATTACHMENTS is off and no line of the list has with_attachments'),
  run: (ctx) => downloadAttachments(ctx),
};

/** The night asks for attachments: LAWSUIT_WITH_ATTACHMENTS, or a line of the list with `with_attachments`. */
function asked(ctx: RunContext, night: NightData): boolean {
  return ctx.cfg.withAttachments || (night.list?.documents.some((d) => d.withAttachments === true) ?? false);
}

async function downloadAttachments(ctx: RunContext): Promise<StageReport> {
  const store = new AttachmentStore(ctx.cfg.attachmentsDir, ctx.cfg.attachmentMaxBytes);
  const cleared = await store.clearPartials();
  const now = new Date();
  const listedPending = await recordListedPending(ctx.wh, now, ctx.runId);
  const due = await dueAttachments(ctx.wh, now, ctx.cfg.attachmentMaxBytes);
  ctx.progress?.('files', 'total', due.length);
  const tally: Record<string, number> = { due: due.length, stored: 0, already_stored: 0, not_ready: listedPending, refused: 0, too_large: 0, failed: 0 };
  const queue = new PQueue({ concurrency: DOWNLOADS_AT_ONCE });
  for (const a of due) {
    void queue.add(async () => {
      if (ctx.signal.aborted) return;
      const outcome = await downloadOne(ctx, store, a);
      if ('sha256' in outcome) {
        await recordStored(ctx.wh, a, { sha256: outcome.sha256, bytes: outcome.bytes, content_type: outcome.contentType, path: outcome.path }, new Date(), ctx.runId);
        tally[outcome.fresh ? 'stored' : 'already_stored']++;
      } else {
        await recordNotStored(ctx.wh, a, outcome, new Date(), ctx.runId);
        tally[outcome.state]++;
        if (outcome.state === 'failed') ctx.log.warn({ code: a.code, instance: a.instance, attachment_id: a.attachment_id, error_code: outcome.error_code }, 'attachment file not downloaded, asked for again on a later night');
      }
      ctx.progress?.('files', 'tick', 1);
    });
  }
  await queue.onIdle();
  const figures = await attachmentFigures(ctx.wh, ctx.runId);
  return {
    counts: { ...tally, files_stored: figures.files_stored, bytes_stored: figures.bytes_stored, partials_removed: cleared },
    interrupted: ctx.signal.aborted || undefined,
    finished: tally.stored + tally.already_stored,
  };
}

/** One attachment's file stored, or why not. A failure the client did not expect is the attachment's, never the night's. */
async function downloadOne(ctx: RunContext, store: AttachmentStore, a: DueAttachment): Promise<StoredFile | NotStored> {
  try {
    return await ctx.api.attachments.download({ code: a.code, instance: a.instance, attachmentId: a.attachment_id }, store.sink(a.extension, () => failpoint('attachments.mid-body')),
      { retries: 2, folder: `the attachments folder (LAWSUIT_ATTACHMENTS_DIR, ${ctx.cfg.attachmentsDir})` });
  } catch (e) {
    return notStored(e);
  }
}

function notStored(e: unknown): NotStored {
  const code = typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : 'ATTACHMENT_FAILED';
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof AttachmentRefused) return code === 'ATTACHMENT_TOO_LARGE' ? { state: 'too_large', error_code: code, reason: message, bytes: e.bytes } : { state: 'failed', error_code: code, reason: message };
  if (code === API_CODES.notFound) return { state: 'not_ready', error_code: 'ATTACHMENT_NOT_READY', reason: `the provider has no file for it yet (404): ${message}` };
  if (code === API_CODES.secretLawsuit || code === API_CODES.forbidden || code === API_CODES.forbiddenOne) return { state: 'refused', error_code: code, reason: message };
  return { state: 'failed', error_code: code, reason: message };
}
