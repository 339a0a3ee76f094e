// Text forms of flat rows. CSV follows RFC 4180 (header line, quotes doubled, fields with a comma, quote or line
// break quoted); JSON files are newline-delimited, one object per row. Timestamps are ISO 8601 in UTC.

import type { FlatColumn, FlatRow, FlatValue } from './flat-source.js';

function text(v: FlatValue, type: FlatColumn['type']): string {
  if (v === null) return '';
  if (v instanceof Date) return v.toISOString();
  if (type === 'decimal' && typeof v === 'number') return v.toFixed(2);
  return String(v);
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvHeader(columns: readonly FlatColumn[]): string {
  return `${columns.map((c) => csvField(c.name)).join(',')}\n`;
}

export function csvLine(columns: readonly FlatColumn[], row: FlatRow): string {
  return `${columns.map((c) => csvField(text(row[c.name] ?? null, c.type))).join(',')}\n`;
}

export function ndjsonLine(columns: readonly FlatColumn[], row: FlatRow): string {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    const v = row[c.name] ?? null;
    out[c.name] = v instanceof Date ? v.toISOString() : v;
  }
  return `${JSON.stringify(out)}\n`;
}
