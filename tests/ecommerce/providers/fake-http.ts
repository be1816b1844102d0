import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
export interface FakeAnswer {
  status: number;
  body: unknown;
}

/**
 * A local HTTP server standing in for a payment provider's API (127.0.0.1, a free port): it keeps every
 * request and answers through `handle`, which checks the request the way the provider does.
 * `failNext(n)` makes the next n answers 500s, as a provider having a bad day (clients may retry).
 */
export async function startFake(handle: (req: FakeRequest) => FakeAnswer) {
  const requests: FakeRequest[] = [];
  let failing = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const request = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
      requests.push(request);
      const answer = failing > 0 ? { status: 500, body: { error: 'unavailable' } } : handle(request);
      failing = Math.max(0, failing - 1);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (times = 5) => void (failing = times),
    /** back to answering */
    recover: () => void (failing = 0),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type Fake = Awaited<ReturnType<typeof startFake>>;
