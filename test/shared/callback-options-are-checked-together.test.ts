// The intake's options are checked at start-up with the rest: `receive` (and `schedule` with a callback port) needs
// a secret long enough to guard a URL alone, and a callback URL must carry the secret the intake answers to.
import { describe, expect, it } from 'vitest';
import { readConfiguration } from '../../src/shared/config.js';

const SECRET = '0123456789abcdef0123456789abcdef';
const problemsOf = (command: 'receive' | 'schedule' | 'run', env: Record<string, string>) =>
  readConfiguration({ command, env: { LAWSUIT_API_KEY: 'k', LAWSUIT_REQUESTS_URL: 'http://x', LAWSUIT_TRACKING_URL: 'http://x', LAWSUIT_LAWSUITS_URL: 'http://x', LAWSUIT_TRANSFER_URL: 'http://x', LAWSUIT_DOCUMENTS: 'config/documents.example.csv', ...env } }).problems;

describe('the callback options', () => {
  it('make receive, and schedule with a callback port, need a secret; nothing else needs one', () => {
    expect(problemsOf('receive', {}).join('\n')).toMatch(/receive needs LAWSUIT_CALLBACK_SECRET_FILE/);
    expect(problemsOf('schedule', { LAWSUIT_CALLBACK_PORT: '8081' }).join('\n')).toMatch(/schedule with LAWSUIT_CALLBACK_PORT needs/);
    expect(problemsOf('schedule', {})).toEqual([]);
    expect(problemsOf('run', {})).toEqual([]);
    expect(problemsOf('receive', { LAWSUIT_CALLBACK_SECRET: SECRET })).toEqual([]);
  });

  it('refuse a secret too short or with characters a URL path changes, without showing it', () => {
    for (const bad of ['short', `${SECRET.slice(0, 30)}/+`, `${SECRET} `]) {
      const p = problemsOf('receive', { LAWSUIT_CALLBACK_SECRET: bad });
      expect(p).toHaveLength(1);
      expect(p[0]).toMatch(/at least 32 characters/);
      expect(p[0]).not.toContain(bad.trim());
    }
  });

  it('refuse a callback URL that does not carry the secret, or is not an http address, without showing its path', () => {
    expect(problemsOf('run', { LAWSUIT_CALLBACK_SECRET: SECRET, LAWSUIT_CALLBACK_URL: `https://hooks.example.com/webhook/${SECRET}` })).toEqual([]);
    expect(problemsOf('run', { LAWSUIT_CALLBACK_SECRET: SECRET, LAWSUIT_CALLBACK_URL: 'https://hooks.example.com/webhook/other' }).join('\n'))
      .toMatch(/LAWSUIT_CALLBACK_URL does not carry LAWSUIT_CALLBACK_SECRET/);
    const p = problemsOf('run', { LAWSUIT_CALLBACK_URL: `ftp://hooks.example.com/webhook/${SECRET}` });
    expect(p.join('\n')).toMatch(/LAWSUIT_CALLBACK_URL.*not an http\(s\) address/);
    expect(p.join('\n')).not.toContain(SECRET);
  });
});
