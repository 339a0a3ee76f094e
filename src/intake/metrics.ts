import { Counter, Gauge, Histogram, Registry } from 'prom-client';

// The intake's Prometheus metrics, served on its own port (/metrics): what was accepted, what was refused and why,
// how large the spool is and how long ago the last delivery came. The last is what to alert on: a provider that
// stopped delivering (a wrong URL, a TLS terminator down) shows here first, the night's listing fallback only later.

/** Why a delivery was answered other than 2xx (the label of lawsuit_intake_refused_total). */
export type RefusalReason = 'secret' | 'not_json' | 'unknown_envelope' | 'too_large' | 'spool';

const REFUSAL_REASONS: readonly RefusalReason[] = ['secret', 'not_json', 'unknown_envelope', 'too_large', 'spool'];

export class IntakeMetrics {
  readonly registry = new Registry();
  readonly deliveries: Counter<'reference_type' | 'outcome'>;
  readonly refused: Counter<'reason'>;
  readonly bytes: Counter;
  readonly seconds: Histogram;
  private last: number | undefined;

  constructor(spool: { bytes: number; deliveries: number; health: { fsyncs: number } }) {
    const registers = [this.registry];
    this.deliveries = new Counter({
      name: 'lawsuit_intake_deliveries_total', help: 'Deliveries answered 2xx, by reference type (request, tracking) and outcome: written to the spool, or already in it (duplicate).',
      labelNames: ['reference_type', 'outcome'], registers,
    });
    this.refused = new Counter({
      name: 'lawsuit_intake_refused_total', help: 'Deliveries refused, by reason: secret (403), not_json (400), unknown_envelope (422), too_large (413): nothing written; spool (503): the spool could not be written, the provider retries.',
      labelNames: ['reason'], registers,
    });
    this.bytes = new Counter({ name: 'lawsuit_intake_bytes_total', help: 'Bytes of the deliveries written to the spool.', registers });
    this.seconds = new Histogram({
      name: 'lawsuit_intake_delivery_seconds', help: 'From a delivery\'s last byte received to its answer (its write and fsync included).', registers,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    });
    new Gauge({ name: 'lawsuit_intake_spool_bytes', help: 'Bytes of the spool\'s segments on disk (the night prunes what it published).', registers, collect() { this.set(spool.bytes); } });
    new Gauge({ name: 'lawsuit_intake_spool_deliveries', help: 'Responses in the spool (its idempotency index).', registers, collect() { this.set(spool.deliveries); } });
    new Counter({ name: 'lawsuit_intake_fsyncs_total', help: 'Writes to the spool, each made durable by one fsync (with LAWSUIT_CALLBACK_FSYNC=batch, fewer than the deliveries under load).', registers, collect() { this.reset(); this.inc(spool.health.fsyncs); } });
    const last = (): number | undefined => this.last;
    new Gauge({
      name: 'lawsuit_intake_last_delivery_age_seconds', help: 'Seconds since the last delivery was accepted (NaN before the first since start).', registers,
      collect() { const t = last(); this.set(t === undefined ? Number.NaN : (Date.now() - t) / 1000); },
    });
    for (const r of REFUSAL_REASONS) this.refused.inc({ reason: r }, 0);
    for (const t of ['request', 'tracking']) for (const o of ['written', 'duplicate']) this.deliveries.inc({ reference_type: t, outcome: o }, 0);
    this.bytes.inc(0);
  }

  /** A delivery was accepted now. */
  accepted(): void {
    this.last = Date.now();
  }

  /** Seconds since the last delivery accepted, or undefined before the first. */
  lastAgeSeconds(): number | undefined {
    return this.last === undefined ? undefined : (Date.now() - this.last) / 1000;
  }
}
