// Fault switches of the transfer files, each there for one test case of the client: a corrupt file (load fails,
// the file is marked error and the run goes on), a download cut half-way or answered 5xx (retried), and
// addresses that expire almost at once (fetched again).

export interface TransferFaults {
  /** Ids or names of files served corrupt: the right length, garbage from the middle on. Default none. */
  corrupt?: readonly string[];
  /** Downloads cut half-way through the body: file ids or names (`*` for every file), for the first `times`
   * downloads of each. Default none. */
  cutMid?: { files: readonly string[]; times: number };
  /** Downloads answered 503 before any byte: file ids or names (`*` for all), the first `times` of each. */
  download5xx?: { files: readonly string[]; times: number };
  /** Download addresses valid this many milliseconds instead of 5 minutes. Default none. */
  expireFastMs?: number;
}

function matches(list: readonly string[], id: string, name: string): boolean {
  return list.includes('*') || list.includes(id) || list.includes(name);
}

/** The switches plus how often each has fired. */
export class TransferFaultState {
  private readonly cuts = new Map<string, number>();
  private readonly fives = new Map<string, number>();
  constructor(readonly faults: TransferFaults = {}) {}

  isCorrupt(id: string, name: string): boolean {
    return matches(this.faults.corrupt ?? [], id, name);
  }

  /** Whether this download is to be cut (counts it). */
  takeCut(id: string, name: string): boolean {
    return this.take(this.faults.cutMid, this.cuts, id, name);
  }

  /** Whether this download is to be answered 503 (counts it). */
  take5xx(id: string, name: string): boolean {
    return this.take(this.faults.download5xx, this.fives, id, name);
  }

  private take(f: { files: readonly string[]; times: number } | undefined, seen: Map<string, number>, id: string, name: string): boolean {
    if (!f || !matches(f.files, id, name)) return false;
    const n = seen.get(id) ?? 0;
    if (n >= f.times) return false;
    seen.set(id, n + 1);
    return true;
  }
}

/**
 * Parses the transfer part of a fault spec: `;`-separated `key=value` items, e.g.
 * `corrupt=<id>,<id>;download_5xx_mid=*:1;download_5xx=<id>:2;expire_fast=50`. Unknown keys are left to the
 * caller (returned in `rest`), so the sandbox's general fault spec can hold these alongside its own.
 */
export function parseTransferFaults(spec: string): { faults: TransferFaults; rest: string[]; problems: string[] } {
  const faults: TransferFaults = {};
  const rest: string[] = [];
  const problems: string[] = [];
  const filesTimes = (v: string, key: string) => {
    const m = /^(.+?)(?::(\d+))?$/.exec(v);
    if (!m) { problems.push(`${key}=${v}: expected <file,...>[:times]`); return undefined; }
    return { files: m[1].split(',').filter(Boolean), times: m[2] === undefined ? 1 : Number(m[2]) };
  };
  for (const item of spec.split(';').map((s) => s.trim()).filter(Boolean)) {
    const eq = item.indexOf('=');
    const key = eq < 0 ? item : item.slice(0, eq);
    const value = eq < 0 ? '' : item.slice(eq + 1);
    if (key === 'corrupt') faults.corrupt = value.split(',').filter(Boolean);
    else if (key === 'download_5xx_mid') faults.cutMid = filesTimes(value || '*', key);
    else if (key === 'download_5xx') faults.download5xx = filesTimes(value || '*', key);
    else if (key === 'expire_fast') {
      const ms = Number(value || '1');
      if (!Number.isInteger(ms) || ms < 0) problems.push(`expire_fast=${value}: expected milliseconds`);
      else faults.expireFastMs = ms;
    } else rest.push(item);
  }
  return { faults, rest, problems };
}
