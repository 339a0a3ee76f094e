// The file of an attachment: a small valid PDF (one page, its name and lawsuit in Helvetica), the same bytes for the
// same attachment on every call and every run of a seed. Some attachments of a lawsuit share their bytes (the same
// petition filed twice), so that a client storing by content meets one file under two ids. A file may be padded out
// to any size inside its content stream (PDF comments), written piece by piece: a 100 MB file is never held whole.

import { hash } from '../random.js';

/** What a file is drawn from: the lawsuit, the attachment, its name. */
interface PdfSource { seed: number; code: string; instance: number; id: string; name: string }

/** A file to send: its length, and its bytes in pieces. */
interface PdfFile { bytes: number; pieces(): Generator<Buffer> }

const ascii = (s: string): string => s.normalize('NFD').replace(/[^\x20-\x7e]/g, '').replace(/[()\\]/g, '');
const PAD_LINE = `%${'0123456789abcdef'.repeat(4)}\n`;

/**
 * The file of an attachment, `size` bytes long when given (at least its natural size). One attachment in five
 * of a lawsuit carries the bytes of its lawsuit's first copy of the same name (drawn from its id).
 */
export function attachmentPdf(src: PdfSource, size?: number): PdfFile {
  const copy = hash(src.seed, 930, parseInt(src.id.slice(0, 8), 16) || 0) % 5 === 0;
  const who = copy ? `${src.code}|${src.instance}|${src.name}` : `${src.code}|${src.instance}|${src.id}`;
  const text = `BT /F1 14 Tf 72 770 Td (${ascii(src.name)}) Tj 0 -24 Td (Processo ${ascii(src.code)} - instancia ${src.instance}) Tj 0 -24 Td (${ascii(who)}) Tj ET\n`;
  const head = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const objs = [
    '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n',
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n',
  ];
  const font = '5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n';
  const bin = (s: string) => Buffer.from(s, 'latin1');
  const natural = (padLines: number, padTail: number) => {
    const streamLen = text.length + padLines * PAD_LINE.length + padTail;
    const before = head + objs.join('') + `4 0 obj\n<< /Length ${streamLen} >>\nstream\n`;
    const after = '\nendstream\nendobj\n';
    return { streamLen, before, after };
  };
  // The trailer names where each object begins: offsets counted in bytes (latin1: one byte a character).
  const build = (padLines: number, padTail: number) => {
    const { streamLen, before, after } = natural(padLines, padTail);
    const offsets: number[] = [];
    let at = head.length;
    for (const o of objs) { offsets.push(at); at += o.length; }
    offsets.push(at);
    const obj5 = before.length + streamLen + after.length;
    offsets.push(obj5);
    const xrefAt = obj5 + font.length;
    const xref = `xref\n0 6\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
      + `trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    return { before, after, tail: font + xref, bytes: before.length + streamLen + after.length + font.length + xref.length };
  };
  let shape = build(0, 0);
  let lines = 0;
  let tail = 0;
  if (size !== undefined && size > shape.bytes) {
    // The padding fills what the target lacks; the numbers the padding lengthens (the stream's /Length, startxref)
    // may gain a digit, so it is measured again until it fits (twice at most).
    let pad = 0;
    for (let k = 0; k < 4 && shape.bytes !== size; k++) {
      pad += size - shape.bytes;
      lines = Math.floor(pad / PAD_LINE.length);
      tail = pad - lines * PAD_LINE.length;
      shape = build(lines, tail);
    }
  }
  const s = shape;
  return {
    bytes: s.bytes,
    *pieces() {
      yield bin(s.before + text);
      const block = Buffer.from(PAD_LINE.repeat(1024), 'latin1');
      let left = lines;
      while (left >= 1024) { yield block; left -= 1024; }
      if (left > 0) yield Buffer.from(PAD_LINE.repeat(left), 'latin1');
      if (tail > 0) yield Buffer.from('%'.padEnd(tail, ' '), 'latin1');
      yield bin(s.after + s.tail);
    },
  };
}
