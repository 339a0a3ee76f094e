import type { Readable } from 'node:stream';

// The CLI logs one JSON object a line on stderr (pino). A test waits for an event by its fields, as it arrives,
// rather than polling the text for a pattern.

export type LogEvent = Record<string, unknown>;

/**
 * The first event on `stream` that `matches`, as soon as its line is written; rejects if none came within `ms`
 * or the stream ended first. Lines that are not JSON objects are skipped.
 */
export function firstEvent(stream: Readable, matches: (e: LogEvent) => boolean, ms: number): Promise<LogEvent> {
  return new Promise((resolve, reject) => {
    let rest = '';
    const done = (f: () => void) => { clearTimeout(late); stream.off('data', onData); stream.off('end', onEnd); f(); };
    const onData = (chunk: Buffer | string) => {
      const lines = (rest + String(chunk)).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        let e: unknown;
        try { e = JSON.parse(line); } catch { continue; }
        if (e !== null && typeof e === 'object' && matches(e as LogEvent)) { done(() => resolve(e as LogEvent)); return; }
      }
    };
    const onEnd = () => done(() => reject(new Error('the stream ended before the event came')));
    const late = setTimeout(() => done(() => reject(new Error(`no such event within ${ms} ms`))), ms);
    stream.on('data', onData);
    stream.once('end', onEnd);
  });
}
