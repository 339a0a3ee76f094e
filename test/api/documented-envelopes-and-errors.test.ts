import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorForStatus } from '../../src/api/errors.js';
import { readEnvelope } from '../../src/api/paginate.js';

// The provider's documentation is looser than the spec (docs/dialect-and-spec-gaps.md, "The provider's dialect"): counts written as
// strings of digits, errors nested with `data` a list or a single string. Both are read; anything that is not
// a count still fails, naming the field.

const envelope = (over: Record<string, unknown>) => ({ page: 1, page_count: 2, all_pages_count: 3, all_count: 5, page_data: [1, 2], ...over });

describe('envelope counts', () => {
  it('a count given as a string of digits reads as that number, in either envelope form', () => {
    fc.assert(fc.property(fc.nat(1_000_000), fc.constantFrom('page', 'all_pages_count', 'all_count'), fc.boolean(), (n, key, meta) => {
      const body = meta
        ? { page_data: [1, 2], meta: { page: 1, page_count: 2, all_pages_count: 3, all_count: 5, [key]: String(n) } }
        : envelope({ [key]: ` ${n}` });
      const page = readEnvelope(body, (v) => v);
      const got = { page: page.page, all_pages_count: page.allPagesCount, all_count: page.allCount }[key];
      expect(got).toBe(n);
    }));
  });

  it('a value that is not a whole number is refused with the field named', () => {
    for (const bad of ['1.5', '-1', 'one', 1.5, -2, true, '']) {
      expect(() => readEnvelope(envelope({ page: bad }), (v) => v), String(bad)).toThrow(/envelope\.page is not a count/);
    }
  });
});

describe('error bodies', () => {
  // What the error a body becomes says of it (a 404 quotes the provider's message whatever else it carries).
  const read = (body: unknown) => {
    const e = errorForStatus(404, body, 'GET /x', (s) => s);
    return { providerCode: e.providerCode, message: e.message, reasons: e.reasons };
  };

  it('reads the spec flat form, and the nested form with data a list or a string', () => {
    expect(read({ error: 'Forbidden', message: 'no', code: 'INSUFFICIENT_PERMISSIONS' }))
      .toEqual({ providerCode: 'INSUFFICIENT_PERMISSIONS', message: 'GET /x not found (404): no', reasons: [] });
    expect(read({ error: { name: 'HttpBadRequestError', message: 'bad', data: ['search_key is required', { field: 'x' }] } }))
      .toEqual({ providerCode: 'HttpBadRequestError', message: 'GET /x not found (404): bad', reasons: ['search_key is required', '{"field":"x"}'] });
    expect(read({ error: { name: 'HttpUnauthorizedError', message: 'who?', data: 'USER_NOT_FOUND' } }))
      .toEqual({ providerCode: 'HttpUnauthorizedError', message: 'GET /x not found (404): who?', reasons: ['USER_NOT_FOUND'] });
  });
});
