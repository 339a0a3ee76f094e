import { attachmentRun } from '../attachment-run.js';
import { at, type BenchPart } from '../part.js';
import { ranToItsEnd } from '../pipeline-run.js';

/** One attachment file of 100 MB downloaded by a night: bytes per second, and a peak RSS that does not grow with it. */
export const attachmentsPart: BenchPart = {
  name: 'attachments',
  keys: ['attachment_mb_per_s', 'attachment_rss_mb', 'attachment_rss_1mb_mb', 'attachment_file_mb'],
  async run(scale, line) {
    const a = await attachmentRun(at(scale, { toy: 1, quick: 100, full: 100 }));
    if (!ranToItsEnd(a.exitCode) || a.files !== 1) throw new Error(`lawsuit-etl run exited ${a.exitCode} having stored ${a.files} attachment files`);
    const mbPerS = Math.round((a.bytes / 1024 / 1024) / Math.max(0.001, a.stageMs / 1000) * 10) / 10;
    line(`attachment_mb_per_s (${a.fileMb} MB file)`, mbPerS, `${a.bytes} bytes in ${(a.stageMs / 1000).toFixed(1)} s (the attachments stage, the sandbox on this machine)`);
    line('attachment_rss_mb', a.peakRssMb, 'peak of the whole night, under --max-old-space-size=128');
    // the same night with a file of 1 MB: the peak must not grow with the file
    const small = a.fileMb === 1 ? a : await attachmentRun(1);
    line('attachment_rss_1mb_mb', small.peakRssMb, 'the same night with a 1 MB file');
    return { attachment_mb_per_s: mbPerS, attachment_rss_mb: a.peakRssMb, attachment_rss_1mb_mb: small.peakRssMb, attachment_file_mb: a.fileMb };
  },
};
