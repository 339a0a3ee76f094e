import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

// Reading an export folder back with hyparquet, a reader independent of DuckDB that wrote it.

export interface ExportFile {
  /** Path under the export folder, e.g. `parties/tribunal_acronym=TJSP/data_0.parquet`. */
  path: string;
  table: string;
  bytes: Buffer;
  rows: Array<Record<string, unknown>>;
  /** Column name -> physical type and logical annotation, as the file's schema says. */
  schema: Record<string, string>;
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out.sort();
}

/** Every file of an export folder, decoded. */
export async function readExport(dir: string): Promise<ExportFile[]> {
  const out: ExportFile[] = [];
  for (const p of files(dir)) {
    const bytes = readFileSync(p);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const meta = parquetMetadata(file);
    const schema: Record<string, string> = {};
    for (const s of meta.schema.slice(1)) schema[s.name] = `${s.type ?? 'group'}/${s.converted_type ?? ''}/${JSON.stringify(s.logical_type ?? null)}`;
    const rows = (await parquetReadObjects({ file, compressors })) as Array<Record<string, unknown>>;
    const path = relative(dir, p);
    out.push({ path, table: path.split('/')[0], bytes, rows, schema });
  }
  return out;
}

/** The rows of one table across its files. */
export function rowsOf(exp: ExportFile[], table: string): Array<Record<string, unknown>> {
  return exp.filter((f) => f.table === table).flatMap((f) => f.rows);
}

/** Every text the files hold once decoded (string values, JSON texts included), one string per file. */
export function decodedText(f: ExportFile): string {
  const parts: string[] = [f.path];
  for (const r of f.rows) for (const v of Object.values(r)) if (typeof v === 'string') parts.push(v);
  return parts.join('\u0000');
}

const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/**
 * Finds CPFs (11 digits, punctuated or not, also inside a longer run of digits) and names (as whole words,
 * ignoring case) in a text in one pass, instead of one search per needle: a night's export holds thousands of
 * each. `bytes` mode reads text decoded as latin1 (raw file bytes), where a name is looked for as its UTF-8
 * bytes and only ASCII letters are folded.
 */
export class NeedleScanner {
  private readonly byFirstWord = new Map<string, string[]>();
  private readonly words: RegExp;
  private readonly fold: (s: string) => string;

  constructor(private readonly cpfs: ReadonlySet<string>, names: Iterable<string>, mode: 'text' | 'bytes') {
    this.fold = mode === 'text' ? (s) => s.toLowerCase() : asciiLower;
    this.words = mode === 'text' ? /[\p{L}\p{N}]+/gu : /[A-Za-z0-9\u0080-\u00ff]+/g;
    for (const raw of names) {
      const name = this.fold(mode === 'text' ? raw : Buffer.from(raw, 'utf8').toString('latin1')).replace(/\s+/g, ' ').trim();
      const first = name.match(this.words)?.[0];
      if (!first || !name.startsWith(first)) continue;
      this.byFirstWord.set(first, [...(this.byFirstWord.get(first) ?? []), name]);
    }
  }

  /** Every needle found in `text`. */
  findAll(text: string): Set<string> {
    const found = new Set<string>();
    const hay = this.fold(text);
    for (const m of hay.matchAll(/[0-9][0-9.-]*[0-9]/g)) {
      const d = m[0].replace(/[^0-9]/g, '');
      for (let i = 0; i + 11 <= d.length; i++) if (this.cpfs.has(d.slice(i, i + 11))) found.add(d.slice(i, i + 11));
    }
    for (const m of hay.matchAll(this.words)) {
      for (const name of this.byFirstWord.get(m[0]) ?? []) {
        const end = m.index + name.length;
        if (hay.startsWith(name, m.index) && !/[\p{L}\p{N}]/u.test(hay[end] ?? '')) found.add(name);
      }
    }
    return found;
  }
}
