// Counts of the calls received, by endpoint (route pattern) and HTTP status, for tests and benchmarks.

export interface CounterSnapshot {
  total: number;
  by_endpoint: Record<string, Record<string, number>>;
}

export class Counters {
  private total = 0;
  private readonly byEndpoint = new Map<string, Map<number | string, number>>();

  record(label: string, status: number | string): void {
    this.total++;
    let m = this.byEndpoint.get(label);
    if (!m) { m = new Map(); this.byEndpoint.set(label, m); }
    m.set(status, (m.get(status) ?? 0) + 1);
  }

  snapshot(): CounterSnapshot {
    const by: Record<string, Record<string, number>> = {};
    for (const [label, m] of this.byEndpoint) {
      by[label] = {};
      for (const [status, n] of m) by[label][String(status)] = n;
    }
    return { total: this.total, by_endpoint: by };
  }

  reset(): void {
    this.total = 0;
    this.byEndpoint.clear();
  }
}
