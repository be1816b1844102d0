import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { getRequestListener } from '@hono/node-server';

export type Listener = ReturnType<typeof getRequestListener>;

/**
 * One GET through @hono/node-server's request listener, as a client with autocannon's headers sends it, on a Node
 * IncomingMessage / ServerResponse pair without a socket (the kernel and the network left out; everything from the
 * parsed request to the written head and body is run). Resolves with the status once the answer has ended.
 */
export function callListener(listener: Listener, path: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    req.url = path;
    req.headers = { host: '127.0.0.1', 'user-agent': 'bench', accept: '*/*' };
    req.rawHeaders = ['host', '127.0.0.1', 'user-agent', 'bench', 'accept', '*/*'];
    req.complete = true;
    req.push(null);
    const res = new ServerResponse(req);
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    res.end = ((...a: unknown[]) => {
      const out = end(...a);
      resolve(res.statusCode);
      return out;
    }) as typeof res.end;
    void listener(req, res);
  });
}
