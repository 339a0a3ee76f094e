// A strict reading of Prometheus' text exposition format 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/), independent of prom-client, which has no
// parser of its own: any line Prometheus would refuse or read differently throws, naming the line.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Family { name: string; type: MetricType; help?: string; samples: Sample[] }

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** A float as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case, e.g. prom-client's "Nan"). */
function parseValue(s: string, where: string): number {
  if (/^\+?inf(inity)?$/i.test(s)) return Infinity;
  if (/^-inf(inity)?$/i.test(s)) return -Infinity;
  if (/^nan$/i.test(s)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) throw new Error(`${where}: "${s}" is not a float`);
  return Number(s);
}

/** The family a sample belongs to: histogram and summary samples carry suffixes. */
function familyOf(sample: string, families: Map<string, Family>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (sample.endsWith(suffix)) {
      const base = sample.slice(0, -suffix.length);
      const f = families.get(base);
      if (f && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return base;
    }
  }
  return sample;
}

function parseLabels(text: string, where: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1; // after '{'
  for (;;) {
    if (text[i] === '}') return { labels, rest: text.slice(i + 1) };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`${where}: label without "="`);
    const name = text.slice(i, eq);
    if (!LABEL.test(name) || name.startsWith('__')) throw new Error(`${where}: bad label name "${name}"`);
    if (name in labels) throw new Error(`${where}: label "${name}" twice`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label value of "${name}" not quoted`);
    let value = '';
    let j = eq + 2;
    for (;; j++) {
      const c = text[j];
      if (c === undefined) throw new Error(`${where}: unterminated label value`);
      if (c === '"') break;
      if (c === '\\') {
        const n = text[++j];
        if (n === '\\') value += '\\';
        else if (n === '"') value += '"';
        else if (n === 'n') value += '\n';
        else throw new Error(`${where}: bad escape "\\${n}" in a label value`);
      } else {
        value += c;
      }
    }
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`${where}: expected "," or "}" after label "${name}"`);
  }
}

/** Every family of the text, in order. Throws on anything the format does not allow. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the text must end with a line feed');
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  const seen = new Set<string>();
  const typed = new Set<string>();
  let current: string | undefined;
  const open = (name: string, where: string): Family => {
    if (current !== name) {
      if (closed.has(name)) throw new Error(`${where}: lines of "${name}" are not together`);
      if (current) closed.add(current);
      current = name;
    }
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: 'untyped', samples: [] }));
    return f;
  };
  text.slice(0, -1).split('\n').forEach((line, n) => {
    const where = `line ${n + 1}`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (!m) return; // a plain comment
      const [, kind, name, rest = ''] = m;
      if (!NAME.test(name)) throw new Error(`${where}: bad metric name "${name}"`);
      const f = open(name, where);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest.trim())) throw new Error(`${where}: unknown type "${rest}"`);
        if (f.samples.length) throw new Error(`${where}: TYPE of "${name}" after its samples`);
        if (typed.has(name)) throw new Error(`${where}: second TYPE for "${name}"`);
        typed.add(name);
        f.type = rest.trim() as MetricType;
      } else {
        if (f.help !== undefined) throw new Error(`${where}: second HELP for "${name}"`);
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ''))) throw new Error(`${where}: bad escape in HELP`);
        f.help = rest.replace(/\\(\\|n)/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));
      }
      return;
    }
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (!nameMatch) throw new Error(`${where}: no metric name`);
    const sampleName = nameMatch[0];
    let rest = line.slice(sampleName.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, rest } = parseLabels(rest, where));
    const parts = rest.trim().split(/\s+/);
    if (!rest.startsWith(' ') || parts.length < 1 || parts.length > 2) throw new Error(`${where}: expected " value [timestamp]"`);
    const value = parseValue(parts[0], where);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`${where}: bad timestamp "${parts[1]}"`);
    const f = open(familyOf(sampleName, families), where);
    const key = `${sampleName}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`${where}: sample ${key} twice`);
    seen.add(key);
    if (f.type === 'counter' && !(value >= 0)) throw new Error(`${where}: counter "${sampleName}" is ${value}`);
    if (f.type === 'histogram' && sampleName.endsWith('_bucket') && !('le' in labels)) throw new Error(`${where}: bucket without "le"`);
    f.samples.push({ name: sampleName, labels, value });
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>();
  for (const s of f.samples.filter((x) => x.name.endsWith('_bucket'))) {
    const { le: _le, ...rest } = s.labels;
    const k = JSON.stringify(Object.entries(rest).sort());
    series.set(k, [...(series.get(k) ?? []), s]);
  }
  for (const [k, buckets] of series) {
    const sorted = [...buckets].sort((a, b) => parseValue(a.labels.le, f.name) - parseValue(b.labels.le, f.name));
    if (sorted.at(-1)?.labels.le !== '+Inf') throw new Error(`${f.name}${k}: no +Inf bucket`);
    for (let i = 1; i < sorted.length; i++) if (sorted[i].value < sorted[i - 1].value) throw new Error(`${f.name}${k}: buckets not cumulative`);
    const count = f.samples.find((s) => s.name === `${f.name}_count` && JSON.stringify(Object.entries(s.labels).sort()) === k);
    if (!count || count.value !== sorted.at(-1)!.value) throw new Error(`${f.name}${k}: _count differs from the +Inf bucket`);
  }
}

/** The value of one sample, or undefined. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const f of families.values()) {
    const s = f.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v)
      && Object.keys(x.labels).length === Object.keys(labels).length);
    if (s) return s.value;
  }
  return undefined;
}
