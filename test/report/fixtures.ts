import type { RunSummary } from '../../src/pipeline/summary.js';
import type { ReportFacts, RejectedLine } from '../../src/report/facts.js';

// A run summary and its facts as the reports receive them, with text that tries everything a provider or a
// documents list could send: tags, a script from elsewhere, quotes, an escape sequence, a carriage return.

export const HOSTILE = {
  phase: '</svg><script>alert("phase")</script>',
  tribunal: '<img src=x onerror=alert(1)>',
  value: '<script src="https://evil.example/x.js"></script>,cpf,"\'&',
  reason: 'bad\r\u001b[2Jhidden',
  note: 'list read as windows-1252 <b>bold</b>',
};

export function rejectedLines(n: number, from = 1): RejectedLine[] {
  return Array.from({ length: n }, (_, i) => ({ line: from + i, value: `value ${from + i}|with pipe`, reason: `reason number ${from + i}` }));
}

export function summary(over: Partial<RunSummary> = {}): RunSummary {
  return {
    runId: '20261123T020000000Z-abcdef01', command: 'run', status: 'partial', exitCode: 4,
    startedAt: '2026-11-23T02:00:00.000Z', finishedAt: '2026-11-23T02:03:10.000Z', durationMs: 190_000,
    stages: [
      { name: 'documents', status: 'ok', ms: 120, counts: { listed: 60, valid: 55, rejected: 5, duplicates: 0, fresh: 0, to_search: 55, resumed: 0 } },
      { name: 'search', status: 'ok', ms: 150_000, counts: { submitted: 55, completed: 54, still_running: 0, failed: 1, pages: 80, polls: 6 } },
      { name: 'transfer', status: 'refused', ms: 300, counts: {}, error: { code: 'API_FORBIDDEN', message: `GET /transfer-file refused with 403: ${HOSTILE.reason}` } },
      { name: 'changes', status: 'ok', ms: 900, counts: { new_lawsuit: 40, phase: 3, new_steps: 12 } },
      { name: 'exports', status: 'skipped', ms: 0, counts: {}, error: { code: 'STAGE_LEFT_OUT', message: 'left out by --skip-export' } },
      { name: 'publish', status: 'ok', ms: 0, counts: {} },
    ],
    warehouse: { lawsuitsThisRun: 52, lawsuits: 400, parties: 900, lawyers: 850, steps: 7000, responses: 420 },
    api: {
      calls: 190, byStatus: { 200: 160, 429: 25, 403: 5 }, byRouteStatus: { 'POST /requests 200': 55, 'GET /responses 200': 105, 'GET /requests 429': 25, 'GET /transfer-file 403': 5 },
      retries: 25,
      timeline: [
        { at: 0, calls: 60, limited: 0, limit: 100, remaining: 40 },
        { at: 10_000, calls: 50, limited: 20, limit: 100, remaining: 0 },
        { at: 40_000, calls: 80, limited: 5, limit: 100, remaining: 12 },
      ],
    },
    failures: [
      { stage: 'transfer', what: 'stage', where: 'transfer (refused)', code: 'API_FORBIDDEN', reason: `GET /transfer-file refused with 403: ${HOSTILE.reason}` },
      { stage: 'search', what: 'request', where: 'line 7 (cpf), request r1', code: 'REQUEST_CANCELLED', reason: `cancelled ${HOSTILE.value}` },
    ],
    changes: {
      counts: { new_lawsuit: 40, new_steps: 12, status: 0, phase: 3, amount: 0, secrecy_level: 0, new_party: 0, gone_from_search: 0 },
      top: [{ code: '0001234-56.2024.8.26.0100', instance: 1, change: 'phase', old_value: 'Inicial', new_value: HOSTILE.phase }],
    },
    notes: [HOSTILE.note],
    ...over,
  };
}

export function facts(over: Partial<ReportFacts> = {}): ReportFacts {
  return {
    lawsuits: {
      asOfRun: '20261123T020000000Z-abcdef01',
      counts: [
        { tribunal: 'TJSP', phase: 'Arquivado', lawsuits: 120 },
        { tribunal: 'TJSP', phase: HOSTILE.phase, lawsuits: 30 },
        { tribunal: 'TJMG', phase: 'Execução', lawsuits: 50 },
        { tribunal: HOSTILE.tribunal, phase: null, lawsuits: 7 },
        { tribunal: null, phase: 'Inicial', lawsuits: 3 },
      ],
    },
    phaseMoves: [{ from: 'Inicial', to: HOSTILE.phase, lawsuits: 3 }],
    rejected: {
      total: 5,
      shown: [
        ...rejectedLines(3),
        { line: 40, value: HOSTILE.value, reason: HOSTILE.reason },
        { line: 41, value: null, reason: 'empty line' },
      ],
    },
    ...over,
  };
}
