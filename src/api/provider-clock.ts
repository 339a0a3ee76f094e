// The provider's clock against ours, learnt from the Date headers of its answers, so that a created_at of its
// own can be compared with a moment of ours (the look-up of an unanswered submission, requests.ts) even when its
// clock is months off.

/**
 * An interval that holds the offset (provider minus local, ms). A Date header is whole seconds, so one answer
 * says the offset is at least `date - answered` and below `date + 1 s - sent`; each answer narrows the interval.
 */
export interface ProviderClock { low: number; high: number }

/** `clock` narrowed by one answer's Date header (sent and answered on our clock, epoch ms); pure. */
export function narrowClock(clock: ProviderClock | undefined, date: string | undefined, sentAt: number, answeredAt: number): ProviderClock | undefined {
  const at = date ? Date.parse(date) : NaN;
  if (Number.isNaN(at)) return clock;
  const low = at - answeredAt;
  const high = at + 1000 - sentAt;
  // An interval that no longer meets the new one means the provider's clock jumped: start again from it.
  if (!clock || low > clock.high || high < clock.low) return { low, high };
  return { low: Math.max(clock.low, low), high: Math.min(clock.high, high) };
}
