import { expect, it } from 'vitest';
import { ConfigError } from '../../src/shared/errors.js';
import { loadConfig } from '../../src/shared/config.js';

// The listing's filter names are not in the spec: by default they are learned from the upstream (src/pipeline/
// dialect.ts); configuration (LAWSUIT_SWEEP_PARAMS) pins them over the spec-like defaults, and the strategy is
// configuration too (LAWSUIT_RESPONSES_STRATEGY).

const load = (env: Record<string, string>) => loadConfig({ env, flags: { sandbox: true } });

it('defaults to the sweep with names learned, none pinned; a pin starts from the spec-like names', () => {
  const cfg = load({});
  expect(cfg.responsesStrategy).toBe('sweep');
  expect(cfg.sweepParams).toBeUndefined();
  expect(load({ LAWSUIT_SWEEP_PARAMS: 'created_gte=created_at_gte' }).sweepParams)
    .toEqual({ createdGte: 'created_at_gte', createdLte: 'created_at_lte', orderBy: 'order_by', orderByValue: 'created_at', order: 'order', orderAsc: 'asc' });
});

it('takes other names, some or all', () => {
  const cfg = load({ LAWSUIT_SWEEP_PARAMS: 'created_gte=createdFrom, order_by=sort:createdAt,order=direction:ASC', LAWSUIT_RESPONSES_STRATEGY: 'per-request' });
  expect(cfg.sweepParams).toEqual({ createdGte: 'createdFrom', createdLte: 'created_at_lte', orderBy: 'sort', orderByValue: 'createdAt', order: 'direction', orderAsc: 'ASC' });
  expect(cfg.responsesStrategy).toBe('per-request');
});

it('reports every bad part at once', () => {
  let e: unknown;
  try { load({ LAWSUIT_SWEEP_PARAMS: 'created_gte=a b,sort=x,created_lte=y:z', LAWSUIT_RESPONSES_STRATEGY: 'sometimes' }); } catch (err) { e = err; }
  expect(e).toBeInstanceOf(ConfigError);
  const text = (e as Error).message;
  expect(text).toMatch(/"created_gte=a b" has a name or value that is not a plain query token/);
  expect(text).toMatch(/unknown role "sort"/);
  expect(text).toMatch(/created_lte takes a name only/);
  expect(text).toMatch(/LAWSUIT_RESPONSES_STRATEGY="sometimes" is not a strategy \(allowed: sweep, per-request\)/);
});
