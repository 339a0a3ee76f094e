import { benchLoad, benchMerge } from './load.js';
import { startSandbox } from '../src/sandbox/server.js';
import { callsRun, KEY_CALLS_PER_DAY, type CallsFigures } from './calls.js';
import { companyDocuments, documentsFinding, individualDocuments, ordinaryDocuments, ordinaryMix } from './documents.js';
import { pipelineRun } from './pipeline-run.js';
import { rateUse, rateUseDocumented, type DialectRateFigures, type RateFigures } from './rate-use.js';
import { rebuildRun, type RebuildFigures } from './rebuild.js';
import { round } from './round.js';
import { largestDocument, sandboxEndpoints } from './sandbox-endpoints.js';
import { sandboxMemory } from './sandbox-memory.js';
import { trackedPortfolio } from './tracked.js';
import { transferRun } from './transfer-run.js';
import { webhookFigures } from './webhook.js';

// `npm run bench`: the figures the nightly run is held to, measured against the sandbox, printed as a table;
// the last line is one JSON object for scripts. BENCH_QUICK=1 runs smaller volumes (no 100k run);
// BENCH_ONLY=calls runs only the calls-per-document part (four mixes, both ways of reading responses, both dialects;
// BENCH_MIX=a,b only those mixes, e.g. BENCH_MIX=individuals-empty);
// BENCH_ONLY=rebuild only `lawsuit-etl rebuild` at 10k and 100k lawsuits (BENCH_QUICK: 2k and 20k);
// BENCH_ONLY=load only the load of a first night beside read_json and the merge of a second;
// BENCH_ONLY=sandbox only the sandbox's own memory and listing speed (parts 6 and 7);
// BENCH_ONLY=rate only the rate-limit use, against the sandbox and against the documented dialect's upstreams;
// BENCH_ONLY=tracked only the tracked portfolio: 10,000 documents over five sandbox days (BENCH_QUICK: 1,000);
// BENCH_ONLY=webhook only the webhook intake: deliveries a second and p99 by fsync mode, its RSS at 100,000
// deliveries (BENCH_QUICK: 20,000), the listing calls of a night with and without it (bench/webhook.ts).

const quick = process.env.BENCH_QUICK === '1';
const only = process.env.BENCH_ONLY;
const line = (k: string, v: string | number, note = '') => console.log(`${k.padEnd(34)} ${String(v).padStart(10)}  ${note}`);

/**
 * Calls against the floor on four mixes, each read by the sweep and per request, in the same run: ordinary
 * documents (of every search type, up to 2,000 lawsuits each), a portfolio of individuals (zero to three
 * lawsuits each), the same portfolio on a night where no document finds anything (1,000 CPFs: the proof that
 * the night is empty once cost a call per request, 2,153 calls against a floor of some 1,010), and a few
 * companies with thousands. The sandbox appends responses court by court (300 ms a court), so the sweep reads
 * while they arrive.
 */
/**
 * Rate-limit use: the limiter is not told the limit; 60 calls per 20 s is the real 180/min at a third of the
 * window. Against the sandbox (Limit, Remaining, Reset and Retry-After), then against upstreams of the
 * documented dialect (no Reset, no Retry-After, refused calls counted): one with Limit and Remaining only,
 * one with no rate header at all.
 */
async function rateFigures(): Promise<Record<string, number>> {
  const size = { limit: 60, windowMs: 20_000, calls: quick ? 150 : 300 };
  const rate = await rateUse(size);
  const show = (name: string, f: RateFigures | DialectRateFigures) => {
    const dialect = 'failed' in f ? `, ${f.failed} failed, ${f.retries} retries (${f.network} network), limit ${f.learnedLimit} per ${f.windowMs} ms` : '';
    line(`rate_use (${name})`, f.rateUse, `${f.calls} calls in ${(f.ms / 1000).toFixed(1)} s, ideal ${(f.idealMs / 1000).toFixed(1)} s${dialect}`);
    line(`share_429 (${name})`, f.share429, `${f.status429} answered 429`);
  };
  show('adaptive limiter', rate.adaptive);
  show('fixed concurrency 8', rate.fixed);
  const lr = await rateUseDocumented({ ...size, headers: 'limit-remaining' });
  show('Limit/Remaining only', lr);
  const none = await rateUseDocumented({ ...size, headers: 'none' });
  show('no rate header', none);
  return {
    rate_use: rate.adaptive.rateUse, share_429: rate.adaptive.share429,
    fixed_rate_use: rate.fixed.rateUse, fixed_share_429: rate.fixed.share429,
    rate_use_limit_remaining_only: lr.rateUse, share_429_limit_remaining_only: lr.share429,
    rate_use_no_headers: none.rateUse, share_429_no_headers: none.share429,
  };
}

async function callsAgainstFloor(): Promise<Record<string, number>> {
  const seedSb = await startSandbox({ seed: 7, lawsuits: 1_000_000 });
  const chosen = process.env.BENCH_MIX ? new Set(process.env.BENCH_MIX.split(',')) : undefined;
  const all = [
    { name: 'ordinary', csv: ordinaryMix(seedSb, quick ? 100 : 300) },
    { name: 'individuals', csv: individualDocuments(seedSb, quick ? 100 : 300).csv },
    { name: 'individuals-empty', csv: individualDocuments(seedSb, quick ? 300 : 1_000, quick ? 300 : 1_000).csv },
    { name: 'companies', csv: companyDocuments(seedSb, quick ? 3 : 5).csv },
  ];
  await seedSb.close();
  const mixes = all.filter((m) => !chosen || chosen.has(m.name));
  const sandboxArgs = ['--seed', '7', '--lawsuits', '1000000', '--rate-limit', '1000000', '--court-delay-ms', '300'];
  const figures: CallsFigures[] = [];
  // The documented dialect (the sandbox's default) both ways of reading; the spec's reading by the sweep, the strategy in force.
  const runs = [['documented', 'sweep'], ['documented', 'per-request'], ['spec', 'sweep']] as const;
  for (const mix of mixes) {
    for (const [dialect, strategy] of runs) {
      const f = await callsRun(mix.name, mix.csv, strategy, sandboxArgs, dialect);
      figures.push(f);
      const label = `${mix.name} (${strategy}${dialect === 'spec' ? ', spec' : ''})`;
      line(`calls_vs_floor ${label}`, f.callsVsFloor,
        `${f.calls} calls for ${f.documents} documents (floor ${f.floor}: ${f.submissions} submissions, ${f.floorPages} pages (of ${f.pageSize} or 4 MB) `
        + `for ${f.responses} responses, ${f.polls} polls; read ${f.listingCalls}), exit ${f.exitCode}`);
      line(`documents_per_key_day ${label}`, f.documentsPerKeyDay);
    }
  }
  const of = (mix: string, strategy: string, dialect = 'documented') => figures.find((f) => f.mix === mix && f.strategy === strategy && f.dialect === dialect)
    ?? { callsVsFloor: NaN, documentsPerKeyDay: NaN };
  return {
    calls_vs_floor_ordinary_spec: of('ordinary', 'sweep', 'spec').callsVsFloor,
    calls_vs_floor_individuals_spec: of('individuals', 'sweep', 'spec').callsVsFloor,
    calls_vs_floor_individuals_empty_spec: of('individuals-empty', 'sweep', 'spec').callsVsFloor,
    calls_vs_floor_companies_spec: of('companies', 'sweep', 'spec').callsVsFloor,
    calls_vs_floor_ordinary: of('ordinary', 'sweep').callsVsFloor,
    calls_vs_floor_individuals: of('individuals', 'sweep').callsVsFloor,
    calls_vs_floor_individuals_empty: of('individuals-empty', 'sweep').callsVsFloor,
    calls_vs_floor_companies: of('companies', 'sweep').callsVsFloor,
    calls_vs_floor_ordinary_per_request: of('ordinary', 'per-request').callsVsFloor,
    calls_vs_floor_individuals_per_request: of('individuals', 'per-request').callsVsFloor,
    calls_vs_floor_individuals_empty_per_request: of('individuals-empty', 'per-request').callsVsFloor,
    calls_vs_floor_companies_per_request: of('companies', 'per-request').callsVsFloor,
    documents_per_key_day_ordinary: of('ordinary', 'sweep').documentsPerKeyDay,
    documents_per_key_day_individuals: of('individuals', 'sweep').documentsPerKeyDay,
    documents_per_key_day_individuals_empty: of('individuals-empty', 'sweep').documentsPerKeyDay,
    documents_per_key_day_companies: of('companies', 'sweep').documentsPerKeyDay,
    documents_per_key_day_ordinary_per_request: of('ordinary', 'per-request').documentsPerKeyDay,
    documents_per_key_day_individuals_per_request: of('individuals', 'per-request').documentsPerKeyDay,
    documents_per_key_day_individuals_empty_per_request: of('individuals-empty', 'per-request').documentsPerKeyDay,
    documents_per_key_day_companies_per_request: of('companies', 'per-request').documentsPerKeyDay,
  };
}

function rebuildLine(r: RebuildFigures): void {
  line(`rebuild lawsuits/s (${r.lawsuits / 1000}k)`, r.lawsuitsPerSec, `${(r.ms / 1000).toFixed(1)} s, exit ${r.exitCode}: ${r.stageLine}`);
  line(`rebuild_peak_rss_mb (${r.lawsuits / 1000}k)`, r.peakRssMb, 'V8 heap 128 MB, DuckDB memory_limit 128MB');
}

/**
 * `lawsuit-etl rebuild` on 100k lawsuits (issue 12: "works in bounded memory on 100k lawsuits"), and on a tenth
 * of them so that the peak's growth with volume shows (1.0 is flat).
 */
async function rebuildAtScale(): Promise<Record<string, number>> {
  const small = await rebuildRun(quick ? 2_000 : 10_000);
  rebuildLine(small);
  const big = await rebuildRun(quick ? 20_000 : 100_000);
  rebuildLine(big);
  line('rebuild rss growth', round(big.peakRssMb / small.peakRssMb), `x${round(big.lawsuits / small.lawsuits)} lawsuits`);
  line('load lawsuits/s (building it)', big.loadLawsuitsPerSec);
  return {
    rebuild_lawsuits: big.lawsuits, rebuild_lawsuits_per_sec: big.lawsuitsPerSec, rebuild_peak_rss_mb: big.peakRssMb,
    rebuild_peak_rss_mb_small: small.peakRssMb, rebuild_rss_growth: round(big.peakRssMb / small.peakRssMb),
    load_lawsuits_per_sec: big.loadLawsuitsPerSec,
  };
}

/** The load of a first night beside DuckDB's own read_json of the same pages, and the merge of a second night. */
async function loadFigures(): Promise<{ load_lawsuits_per_sec: number; load_vs_duckdb: number; load_merge_lawsuits_per_sec: number }> {
  const n = quick ? 5_000 : 20_000;
  const load = await benchLoad(n);
  line('load lawsuits/s (ours)', Math.round(load.ours.lawsuitsPerSec));
  line('load lawsuits/s (read_json)', Math.round(load.duckdb.lawsuitsPerSec));
  line('load_vs_duckdb', load.ratio);
  const merge = await benchMerge(n);
  line('load_merge lawsuits/s (second night)', merge.lawsuitsPerSec, `${merge.lawsuits} lawsuits merged in ${(merge.ms / 1000).toFixed(1)} s`);
  return { load_lawsuits_per_sec: Math.round(load.ours.lawsuitsPerSec), load_vs_duckdb: load.ratio, load_merge_lawsuits_per_sec: merge.lawsuitsPerSec };
}

/**
 * 6. The sandbox's own memory serving a backfill's worst case (big-party requests, all kept for the run) and the
 * slowest page of its merged listing; 7. its peak per endpoint on the 1M universe's largest document, under the
 * CLI's 128 MB heap.
 */
async function sandboxFigures(): Promise<Record<string, unknown>> {
  const sbm = await sandboxMemory(quick ? 200 : 1000);
  line('sandbox_rss_mb', sbm.peakRssMb, `${sbm.requests} big-party requests, ${sbm.items} items held, in ${(sbm.ms / 1000).toFixed(0)} s`);
  line('sandbox_slowest_listing_page_ms', sbm.slowestListingPageMs, `page ${sbm.slowestListingPage} of ${Math.ceil(sbm.items / 100)} (100 items a page, all requests merged; page 1: ${sbm.firstListingPageMs} ms)`);
  line('sandbox listing page ms by depth', '', Object.entries(sbm.listingPageMs).map(([page, ms]) => `p${page} ${ms}`).join(', '));
  const doc = largestDocument();
  line('sandbox largest document', doc.lawsuits, `${doc.name} (${doc.document})`);
  const byEndpoint: Record<string, number | null> = {};
  for (const e of await sandboxEndpoints(doc)) {
    line(`sandbox_peak_rss_mb ${e.endpoint}`, e.peakRssMb ?? 'crashed', `${e.detail}, ${(e.ms / 1000).toFixed(1)} s`);
    byEndpoint[e.endpoint] = e.peakRssMb;
  }
  return {
    sandbox_rss_mb: sbm.peakRssMb, sandbox_slowest_listing_page_ms: sbm.slowestListingPageMs, sandbox_first_listing_page_ms: sbm.firstListingPageMs,
    sandbox_largest_document_lawsuits: doc.lawsuits, sandbox_peak_rss_mb_by_endpoint: byEndpoint,
  };
}

/**
 * A tracked portfolio (issue 23): individuals' CPFs tracked and read night after night over five sandbox days.
 * Nights 2 to 5 buy no search and take at most 0.02 calls a document; after night 5 the warehouse is a searches
 * night's.
 */
async function trackedFigures(): Promise<Record<string, unknown>> {
  const seedSb = await startSandbox({ seed: 7, lawsuits: 1_000_000 });
  const n = quick ? 1_000 : 10_000;
  const portfolio = individualDocuments(seedSb, n);
  await seedSb.close();
  const t = await trackedPortfolio(portfolio.csv, n, ['--seed', '7', '--lawsuits', '1000000', '--rate-limit', '1000000'], (night) => {
    line(`tracked night ${night.night}`, night.calls, `${night.callsPerDocument} a document; ${night.searches} searches bought, ${night.runsRead} tracking runs read, `
      + `${night.responses} responses loaded; ${(night.ms / 1000).toFixed(0)} s, exit ${night.exitCode}`);
  });
  line('tracking_calls_per_document_night', t.trackingCallsPerDocumentNight, `the most of nights 2-5, ${t.documents} documents (${t.searchesAfterFirst} searches bought after night 1)`);
  line('tracked_documents_per_key_day', t.trackedDocumentsPerKeyDay, `${KEY_CALLS_PER_DAY} calls a key-day at that rate`);
  line('tracked warehouse = searches night', String(t.equalsSearchesNight), `lawsuits, parties and steps after night 5, but ${t.changedSinceLastRuns} lawsuits changed after the last runs`
    + (t.differing.count ? `; ${t.differing.count} lawsuits differ, e.g. ${t.differing.some.join(', ')}` : ''));
  return {
    tracking_calls_per_document_night: t.trackingCallsPerDocumentNight, tracked_documents_per_key_day: t.trackedDocumentsPerKeyDay,
    tracked_searches_after_first_night: t.searchesAfterFirst, tracked_equals_searches_night: t.equalsSearchesNight, tracked_changed_after_last_runs: t.changedSinceLastRuns, tracked_differing_lawsuits: t.differing.count,
    tracked_calls_by_night: t.nights.map((x) => x.calls),
  };
}

async function main(): Promise<void> {
  console.log('lawsuit-etl benchmark (sandbox)\n');
  if (only === 'calls') {
    console.log(JSON.stringify(await callsAgainstFloor()));
    return;
  }
  if (only === 'rebuild') {
    console.log(JSON.stringify(await rebuildAtScale()));
    return;
  }
  if (only === 'load') {
    console.log(JSON.stringify(await loadFigures()));
    return;
  }
  if (only === 'sandbox') {
    console.log(JSON.stringify(await sandboxFigures()));
    return;
  }
  if (only === 'rate') {
    console.log(JSON.stringify(await rateFigures()));
    return;
  }
  if (only === 'tracked') {
    console.log(JSON.stringify(await trackedFigures()));
    return;
  }
  if (only === 'webhook') {
    console.log(JSON.stringify(await webhookFigures(quick, line)));
    return;
  }
  if (only !== undefined && only !== '') throw new Error(`BENCH_ONLY=${only}: the parts that run alone are "calls", "rebuild", "load", "sandbox", "rate", "tracked" and "webhook"`);

  // 1. rate-limit use, against the sandbox and against upstreams that name no time
  const rate = await rateFigures();

  // 2. calls per document and polls per request: a nightly run over ordinary documents
  const seedSb = await startSandbox({ seed: 7, lawsuits: 1_000_000 });
  const ordinary = ordinaryDocuments(seedSb, quick ? 100 : 300);
  const small = documentsFinding(seedSb, 10_000);
  const big = quick ? undefined : documentsFinding(seedSb, 100_000);
  await seedSb.close();
  const sandboxArgs = ['--seed', '7', '--lawsuits', '1000000', '--rate-limit', '1000000'];
  const calls = await pipelineRun({ csv: ordinary, sandboxArgs });
  const callsPerDocument = round(calls.calls / calls.documents);
  const pollsPerRequest = round(calls.polls / calls.requests);
  line('calls_per_document', callsPerDocument, `${calls.calls} calls for ${calls.documents} documents`);
  line('polls_per_request', pollsPerRequest, `${calls.polls} polling calls for ${calls.requests} requests`);

  // 2b. calls against the floor, three mixes, both ways of reading responses
  const floor = await callsAgainstFloor();

  // 3. load speed against DuckDB's own read_json of the same pages into the same tables, and a second night's merge
  const load = await loadFigures();

  // 3b. rebuild from responses_raw, beside the load: the same lawsuits, loaded as a night loads them, then rebuilt
  const rebuild = await rebuildRun(quick ? 5_000 : 20_000);
  rebuildLine(rebuild);

  // 4. peak memory of a whole run at 10k and 100k lawsuits
  const r10 = await pipelineRun({ csv: small.csv, sandboxArgs });
  line('rss_mb_10k', r10.peakRssMb, `${r10.lawsuits} lawsuits in ${(r10.ms / 1000).toFixed(0)} s, exit ${r10.exitCode}`);
  let rss100: number | null = null;
  if (big) {
    const r100 = await pipelineRun({ csv: big.csv, sandboxArgs });
    rss100 = r100.peakRssMb;
    line('rss_mb_100k', r100.peakRssMb, `${r100.lawsuits} lawsuits in ${(r100.ms / 1000).toFixed(0)} s, exit ${r100.exitCode}`);
    line('end-to-end lawsuits/s at 100k', Math.round(r100.lawsuits / (r100.ms / 1000)));
    // "not growing with volume": ten times the lawsuits should cost next to no more memory (1.0 is flat)
    line('rss growth, 10k -> 100k', round(r100.peakRssMb / r10.peakRssMb), `x${round(r100.lawsuits / r10.lawsuits)} lawsuits`);
  }

  // 5. a big transfer file streamed to staging and loaded by DuckDB, never held in memory
  const tr = await transferRun(quick ? 100 : 300);
  line(`transfer_rss_mb (${tr.fileMb} MB csv)`, tr.peakRssMb, `${tr.loadedRows} of ${tr.rows} rows in ${(tr.ms / 1000).toFixed(0)} s, exit ${tr.exitCode}`);

  // 6-7. the sandbox's own memory and listing speed
  const sandbox = await sandboxFigures();

  // 8. a tracked portfolio over five sandbox days
  const tracked = await trackedFigures();

  // 9. the webhook intake: its pace and memory, and the listing calls it saves a night
  const webhook = await webhookFigures(quick, line);

  console.log(JSON.stringify({
    ...rate,
    polls_per_request: pollsPerRequest, calls_per_document: callsPerDocument,
    ...load,
    rebuild_lawsuits_per_sec: rebuild.lawsuitsPerSec, rebuild_peak_rss_mb: rebuild.peakRssMb, rss_mb_10k: r10.peakRssMb, rss_mb_100k: rss100,
    rss_growth: rss100 === null ? null : round(rss100 / r10.peakRssMb), transfer_rss_mb: tr.peakRssMb,
    ...sandbox, ...floor, ...tracked, ...webhook,
  }));
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
