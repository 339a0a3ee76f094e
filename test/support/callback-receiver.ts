import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for a webhook receiver in the sandbox's tests: it keeps every body POSTed to it, in arrival order, and
// answers each with the status `answer` chooses (200 by default). Listens on 127.0.0.1, on a port the OS picks.

export interface Received { at: number; body: any }

export interface CallbackReceiver {
  url: string;
  received: Received[];
  /** The status of the next POST, from the body and how many times this callback_id came before. */
  answer: (body: any, seen: number) => number;
  close(): Promise<void>;
}

export async function callbackReceiver(answer: CallbackReceiver['answer'] = () => 200): Promise<CallbackReceiver> {
  const seen = new Map<string, number>();
  const r: CallbackReceiver = { url: '', received: [], answer, close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const n = seen.get(body.callback_id) ?? 0;
      seen.set(body.callback_id, n + 1);
      const status = r.answer(body, n);
      if (status >= 200 && status < 300) r.received.push({ at: Date.now(), body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
  return r;
}
