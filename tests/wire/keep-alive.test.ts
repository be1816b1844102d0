import { describe, it, expect, afterEach, vi } from 'vitest';
import { Agent, request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { ROOT } from '../../engine/codegen.js';
import { DEFAULT_KEEP_ALIVE_TIMEOUT_MS, loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import type { Plugin } from '../../runtime/plugin.js';
import { DIALECTS } from '../helpers/databases.js';
import { refusesConnections } from '../helpers/process.js';

describe('keep-alive settings', () => {
  it('an idle connection is kept longer than a load balancer keeps its own (65 s), headers a second more; both can be set', () => {
    const c = loadConfig({});
    expect(DEFAULT_KEEP_ALIVE_TIMEOUT_MS).toBe(65_000);
    expect([c.keepAliveTimeoutMs, c.headersTimeoutMs]).toEqual([65_000, 66_000]);
    expect(loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '120000' })).toMatchObject({ keepAliveTimeoutMs: 120_000, headersTimeoutMs: 121_000 });
    expect(loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '70000', HEADERS_TIMEOUT_MS: '90000' })).toMatchObject({ keepAliveTimeoutMs: 70_000, headersTimeoutMs: 90_000 });
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '65s' })).toThrow("KEEP_ALIVE_TIMEOUT_MS must be a whole number from 1000 to 3600000, got '65s'");
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '500' })).toThrow('KEEP_ALIVE_TIMEOUT_MS must be a whole number from 1000');
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '1e5' })).toThrow('HEADERS_TIMEOUT_MS must be a whole number');
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '70000', HEADERS_TIMEOUT_MS: '60000' })).toThrow("HEADERS_TIMEOUT_MS must be longer than KEEP_ALIVE_TIMEOUT_MS (70000), got '60000'");
  });
});

/** a route that answers once the test lets it (`release`), so that a request is in flight for as long as the test says */
function slowPlugin() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let entered = false;
  const plugin: Plugin = {
    name: 'slow',
    routes: (app) =>
      app.get('/api/test/slow', async (c) => {
        entered = true;
        await released;
        return c.text('z'.repeat(200_000));
      }),
  };
  return { plugin, release: () => release(), entered: () => entered };
}

/** one GET through `agent` (keep-alive): status, headers, the whole body and the socket it went on */
function get(base: string, path: string, agent: Agent): Promise<{ status: number; headers: IncomingMessage['headers']; body: string; socket: Socket; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, socket: req.socket as Socket, reused: req.reusedSocket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Behind a load balancer that keeps idle connections to the server 60 s, Node's default of closing them after 5 s
 * made the balancer send requests on connections the server had just closed (502s). The server keeps them
 * KEEP_ALIVE_TIMEOUT_MS (65 s by default); a shutdown still closes idle ones at once and lets one in flight finish.
 * None of this is timed: a long keep-alive and grace (10 minutes) make a stop that waited for them never end.
 */
for (const d of DIALECTS) {
  describe(`keep-alive connections and the shutdown (${d.name})`, () => {
    const stops: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const stop of stops.splice(0)) await stop();
    });
    const start = async (env: Record<string, string>, plugins: Plugin[] = []) => {
      const db = await d.make();
      const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATABASE_URL: db.url, RBAC_SECRET_KEY: 'keep-alive-secret-0123', RBAC_JWT_SECRET: 'keep-alive-jwt-0123456', LOG_LEVEL: 'silent', ...env });
      const running = await startServer({ config, root: ROOT, plugins, seed: false });
      let closed = false;
      const close = async (grace?: number) => {
        if (closed) return;
        closed = true;
        await running.close(grace);
      };
      stops.push(async () => {
        await close(1000);
        await db.drop();
      });
      return { running, close, base: `http://127.0.0.1:${running.port}` };
    };

    it('the server keeps idle connections as configured, and headers a little longer', async () => {
      const { running } = await start({ KEEP_ALIVE_TIMEOUT_MS: '70000' });
      const server = running.server as import('node:http').Server;
      expect(server.keepAliveTimeout).toBe(70_000);
      expect(server.headersTimeout).toBe(71_000);
      expect(server.requestTimeout === 0 || server.requestTimeout >= server.headersTimeout).toBe(true);
      const defaults = (await start({})).running.server as import('node:http').Server;
      expect([defaults.keepAliveTimeout, defaults.headersTimeout]).toEqual([65_000, 66_000]);
    });

    it('a stop closes an idle keep-alive connection at once, without waiting for its timeout', async () => {
      const { close, base } = await start({ KEEP_ALIVE_TIMEOUT_MS: '600000' });
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const first = await get(base, '/api/health', agent);
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe('keep-alive');
      const socketClosed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));
      // the connection is idle in the agent's pool; a stop that waited for the keep-alive timeout (or the grace) would
      // not end within the test
      await close(600_000);
      await socketClosed;
      agent.destroy();
    });

    it('a request in flight on a keep-alive connection gets its whole answer, with Connection: close, before the stop ends', async () => {
      const slow = slowPlugin();
      const { running, close, base } = await start({ KEEP_ALIVE_TIMEOUT_MS: '600000' }, [slow.plugin]);
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      expect((await get(base, '/api/health', agent)).status).toBe(200);
      // the second request goes on the same connection and stays in flight
      const inFlight = get(base, '/api/test/slow', agent);
      await vi.waitFor(() => expect(slow.entered()).toBe(true));
      let stopped = false;
      const stopping = close(600_000).then(() => (stopped = true));
      // the stop waits for the answer: the connection is not idle
      for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
      expect(stopped).toBe(false);
      slow.release();
      const answer = await inFlight;
      expect(answer.reused).toBe(true);
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBe(200_000);
      expect(answer.headers.connection).toBe('close');
      await stopping;
      await refusesConnections(running.port);
      agent.destroy();
    });
  });
}
