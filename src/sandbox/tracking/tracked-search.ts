// A tracking's search, kept between its runs so that a re-run costs what changed, not a whole search. Its
// candidates do not depend on time (universe.ts finds them once, the costly part of a document search); each is
// kept with its tribunal (so the candidates sit in the order a search lists its hits: tribunal, then index), the
// first instant the search's view shows it, whether the latest run found it, and the date of its next step not
// yet seen. A re-run looks again only at a candidate the view now shows for the first time or whose next step the
// crawler has now read (changes.ts), and carries every other one's answer over: exactly what running the whole
// search again and comparing would give, at the cost of a few hashes per candidate.

import { viewedAt } from '../changes.js';
import type { Levels } from '../dialect.js';
import { inAnswerOrder } from '../levels.js';
import type { RunLawsuit } from '../request-store.js';
import { candidates, finds } from '../search.js';
import type { NormalizedSearch } from '../search-validation.js';
import type { Universe } from '../universe.js';
import type { RunMode } from './run-content.js';

export class TrackedSearch {
  private readonly candidates: Int32Array;
  private readonly tribunalOf: Uint16Array;
  private readonly tribunals: string[] = [];
  private readonly visibleFrom: Float64Array;
  private readonly found: Uint8Array;
  /** Date of each candidate's first step after what the latest run saw; NaN: not known yet (found on first need). */
  private readonly nextStep: Float64Array;
  /** Instant of the latest run made (undefined before the first). */
  lastRunMs?: number;

  /** `levels` orders the candidates as a read of the search lists its hits (levels.ts: instances most recent first). */
  constructor(private readonly u: Universe, private readonly search: NormalizedSearch, levels: Levels = 'one') {
    const listed = candidates(u, search).map((i) => {
      const plan = u.plan(i);
      return { index: i, instance: plan.instance, tribunal: plan.tribunal.acronym, plan };
    });
    listed.sort((a, b) => (a.tribunal < b.tribunal ? -1 : a.tribunal > b.tribunal ? 1 : a.index - b.index));
    const plans = inAnswerOrder(levels, search.type, listed).map((x) => x.plan);
    const n = plans.length;
    this.candidates = Int32Array.from(plans, (p) => p.index);
    this.tribunalOf = Uint16Array.from(plans, (p) => {
      const k = this.tribunals.indexOf(p.tribunal.acronym);
      return k >= 0 ? k : this.tribunals.push(p.tribunal.acronym) - 1;
    });
    this.visibleFrom = Float64Array.from(plans, (p) => u.visibleFrom(p, search.onDemand));
    this.found = new Uint8Array(n);
    this.nextStep = new Float64Array(n).fill(Number.NaN);
  }

  /**
   * The lawsuits a run at `at` sends, in a search's order: every one found, those changed since the latest run (new
   * to the search, or with new steps), or those born (found now and not at the latest run).
   */
  run(at: number, mode: RunMode): RunLawsuit[] {
    const { u, search } = this;
    const onDemand = search.onDemand;
    const prev = this.lastRunMs;
    const out: RunLawsuit[] = [];
    for (let k = 0; k < this.candidates.length; k++) {
      const i = this.candidates[k];
      if (at < this.visibleFrom[k]) { this.found[k] = 0; continue; }
      // New to the view, or with a step the view did not show at the latest run: look again. Else nothing changed.
      let changed = true;
      if (prev !== undefined && prev >= this.visibleFrom[k]) {
        const seen = viewedAt(u, i, at, onDemand);
        const before = viewedAt(u, i, prev, onDemand);
        if (seen !== before) {
          if (Number.isNaN(this.nextStep[k])) this.nextStep[k] = u.nextStepAfter(i, before);
          changed = this.nextStep[k] <= seen;
        } else changed = false;
      }
      const wasFound = this.found[k];
      if (changed) {
        const o = u.observe(i, at, onDemand);
        this.found[k] = o && finds(search, o) ? 1 : 0;
        this.nextStep[k] = Number.NaN;
      }
      const sent = mode === 'every' || (changed && (mode === 'changed' || !wasFound));
      if (this.found[k] && sent) out.push({ index: i, tribunal: this.tribunals[this.tribunalOf[k]] });
    }
    this.lastRunMs = at;
    return out;
  }
}
