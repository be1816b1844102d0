import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { join } from 'node:path';
import net from 'node:net';
import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import type { FastReads } from './http/fast-read.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { openDatabaseOf } from './db/open.js';
import { loadModel, loadTables } from './generated.js';
import { createApp } from './app.js';
import { ensureDefaults, isEmpty, seed } from './seed.js';
import type { Plugin } from './plugin.js';
import type { Logger } from 'pino';
import { mountWeb, type StorefrontRenderer, type WebMode } from './web.js';

export interface StartOptions {
  config: Config;
  root: string;
  plugins: Plugin[];
  /** defaults to <root>/generated, <root>/migrations and <root>/schemas */
  generatedDir?: string;
  migrationsDir?: string;
  schemasDir?: string;
  /** seed an empty database with the plugins' demo rows (default true) */
  seed?: boolean;
  /** how the web apps are served (default: none) */
  web?: WebMode;
  /** the logger (default: runtime/log.ts createLogger at the configured level) */
  log?: Logger;
}

export interface Running {
  url: string;
  port: number;
  database: Database;
  server: ServerType;
  /** the fast lane of anonymous reads by id (runtime/http/fast-read.ts): `served` counts its answers */
  fastReads: FastReads;
  /**
   * A graceful stop: stops accepting connections, ends event streams, lets the requests in flight finish (for at
   * most `graceMs`, default SHUTDOWN_GRACE_MS or 10 s; then their connections are cut), then closes the database.
   */
  close(graceMs?: number): Promise<void>;
}

/** how long a connection accepted before a shutdown may take to send its first request, once the shutdown began */
const FIRST_REQUEST_GRACE_MS = 1000;
/**
 * A stopping server keeps accepting until no connection has come for QUIET_MS (at most ACCEPT_MAX_MS): the kernel
 * queues connections a busy process has not accepted yet (a process busy writing takes one per turn of its event
 * loop), and closing the listening socket resets every one of them — requests clients sent before the signal.
 */
const QUIET_MS = 50;
const ACCEPT_MAX_MS = 1000;

interface Connection {
  /** when it was accepted */
  at: number;
  /** requests it has sent */
  requests: number;
  /** the answer to its latest request (being answered while not finished) */
  answer?: import('node:http').ServerResponse;
}

const connectionsOf = new WeakMap<import('node:http').Server, { sockets: Map<import('node:net').Socket, Connection>; draining: boolean; lastConnection: number }>();

/**
 * Keeps what a graceful stop needs to know of each connection (`drain`): whether it has sent a request and whether
 * one is being answered. Called as the server is made, before it listens.
 */
export function trackConnections(server: import('node:http').Server) {
  const state = { sockets: new Map<import('node:net').Socket, Connection>(), draining: false, lastConnection: 0 };
  connectionsOf.set(server, state);
  server.on('connection', (socket: import('node:net').Socket) => {
    state.lastConnection = Date.now();
    state.sockets.set(socket, { at: Date.now(), requests: 0 });
    socket.once('close', () => state.sockets.delete(socket));
  });
  // first, before the app writes anything: an answer given while stopping closes its connection after it
  // no listener per answer: whether it is finished is read when a stop asks
  server.prependListener('request', (req, res) => {
    const c = state.sockets.get(req.socket);
    if (c) {
      c.requests++;
      c.answer = res;
    }
    if (state.draining && !res.headersSent) res.setHeader('connection', 'close');
  });
}

/**
 * The connection timeouts of the config on a server: idle keep-alive connections stay open KEEP_ALIVE_TIMEOUT_MS (a
 * load balancer's pool reuses them; Node's default of 5 s closed them under it), headers may take HEADERS_TIMEOUT_MS,
 * and a whole request at least as long (Node refuses a request timeout shorter than the headers'). A shutdown does not
 * wait for these: `drain` closes idle connections at once.
 */
export function applyTimeouts(server: import('node:http').Server, config: Pick<Config, 'keepAliveTimeoutMs' | 'headersTimeoutMs'>) {
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.headersTimeout = config.headersTimeoutMs;
  if (server.requestTimeout > 0 && server.requestTimeout < config.headersTimeoutMs) server.requestTimeout = config.headersTimeoutMs;
}

/**
 * Stops the server accepting connections and resolves once every connection has ended. Every connection already
 * accepted is answered: one between requests (keep-alive) is closed at once, as soon as its request in flight is
 * answered; one that has not sent its first request yet (its bytes may be on their way) gets
 * FIRST_REQUEST_GRACE_MS to send it, and is answered with `Connection: close`. After `graceMs` the remaining ones are
 * cut. (Node's own `http.Server.close` also closes the connections with no request parsed yet, which reset requests
 * a client had already sent: the listening socket is closed as a plain `net.Server` instead.)
 */
export function drain(server: import('node:http').Server, graceMs: number): Promise<void> {
  const state = connectionsOf.get(server);
  if (state) {
    state.draining = true;
    // answers being made as the stop begins close their connection after them too (a keep-alive one would otherwise
    // stay open for the client's next request, which the stop would then cut)
    for (const c of state.sockets.values()) if (c.answer && !c.answer.headersSent) c.answer.setHeader('connection', 'close');
  }
  const started = Date.now();
  const closeIdle = () => {
    if (!state) return server.closeIdleConnections();
    const now = Date.now();
    for (const [socket, c] of state.sockets) {
      if (c.answer && !c.answer.writableFinished) continue;
      if (c.requests > 0 || now - Math.max(c.at, started) >= FIRST_REQUEST_GRACE_MS) socket.destroy();
    }
  };
  return new Promise<void>((resolve) => {
    const idle = setInterval(closeIdle, 50);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    const done = () => {
      clearInterval(idle);
      clearTimeout(deadline);
      resolve();
    };
    if (!state) {
      server.close(done);
      return closeIdle();
    }
    // the listening socket closes once the connections the kernel queued before the signal are accepted (QUIET_MS)
    const isQuiet = () => {
      const now = Date.now();
      return now - Math.max(state.lastConnection, started) >= QUIET_MS || now - started >= ACCEPT_MAX_MS;
    };
    let checking = false;
    const quiet = setInterval(() => {
      if (checking || !isQuiet()) return;
      // confirmed after the event loop's poll phase (setImmediate runs right after it): a loop held up by a long task
      // runs its timers before it accepts what the kernel queued meanwhile, and that is not quiet
      checking = true;
      setImmediate(() => {
        checking = false;
        if (!isQuiet()) return;
        clearInterval(quiet);
        (net.Server.prototype.close as (this: net.Server, cb: () => void) => net.Server).call(server, done);
        closeIdle();
      });
    }, 10);
  });
}

/**
 * In production nothing is generated: the manifests must need no migration beyond the committed ones (generated/
 * is brought up to date from them when stale), or the start is refused with a message saying what to do.
 */
async function checkProduction(opts: StartOptions, generatedDir: string, migrationsDir: string) {
  const { codegen } = await import('../engine/codegen.js');
  await codegen({ production: true, schemasDir: opts.schemasDir ?? join(opts.root, 'schemas'), outDir: generatedDir, migrationsDir });
}

/**
 * `http.createServer` with the fast lane (runtime/http/fast-read.ts) in front of hono's listener: an anonymous read of
 * a public row by id is answered from the Node request; every other request goes to the app as it came.
 */
export function withFastReads(fast: FastReads): typeof createServer {
  return ((options: ServerOptions, listener: RequestListener) => createServer(options, fastFirst(fast, listener))) as typeof createServer;
}

/** a Node request listener: the fast lane, else `listener` (hono's, of the app without the lane: `answer`) */
export function fastFirst(fast: FastReads, listener: RequestListener): RequestListener {
  return (req, res) => {
    if (!fast.node(req, res, listener)) void listener(req, res);
  };
}

/** opens the database, applies pending migrations (each in its own transaction), seeds an empty database */
export async function prepare(opts: StartOptions) {
  const generatedDir = opts.generatedDir ?? join(opts.root, 'generated');
  const migrationsDir = opts.migrationsDir ?? join(opts.root, 'migrations');
  if (opts.config.production) await checkProduction(opts, generatedDir, migrationsDir);
  const generated = { model: loadModel(generatedDir) };
  const database = await openDatabaseOf(opts.config.databaseUrl, (dialect) => loadTables(generatedDir, dialect), opts.config.databaseReadUrl);
  let migrated: string[];
  try {
    migrated = (await database.migrate(migrationsDir)).applied.map((m) => m.tag);
  } catch (e) {
    await database.close().catch(() => undefined);
    throw e;
  }
  const built = createApp({ model: generated.model, database, config: opts.config, plugins: opts.plugins, log: opts.log });
  const defaults = opts.plugins.flatMap((p) => (p.defaults ? [p.defaults] : []));
  const empty = opts.seed !== false && (await isEmpty(built.repo, defaults));
  await ensureDefaults(built.repo, defaults);
  let seeded = 0;
  if (empty) {
    seeded = await seed(built.repo, opts.plugins.flatMap((p) => (p.seed ? [p.seed] : [])));
  }
  return { ...built, database, model: generated.model, seeded, migrated };
}

export async function startServer(opts: StartOptions): Promise<Running & { seeded: number; migrated: string[] }> {
  const prepared = await prepare(opts);
  // the HTTP server first, so that Vite's HMR (development) attaches to it instead of a port of its own
  const server = createAdaptorServer({ fetch: prepared.answer, createServer: withFastReads(prepared.fastReads) });
  applyTimeouts(server as import('node:http').Server, opts.config);
  trackConnections(server as import('node:http').Server);
  const closeWeb = await mountWeb(prepared.app, opts.root, opts.web ?? 'off', prepared.ctx.services.storefront as StorefrontRenderer | undefined, { httpServer: server as import('node:http').Server, port: opts.config.port });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.config.port, opts.config.host, () => resolve());
  });
  // after listening: the API answers at once while the storefront's renderer loads in the background
  void (prepared.ctx.services.storefront as StorefrontRenderer | undefined)?.warm?.().catch((e: unknown) => prepared.ctx.log.error({ err: e }, 'the storefront renderer failed to load'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.config.port;
  return {
    url: `http://localhost:${port}`,
    port,
    database: prepared.database,
    server,
    fastReads: prepared.fastReads,
    seeded: prepared.seeded,
    migrated: prepared.migrated,
    async close(graceMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000)) {
      prepared.shutdown();
      await drain(server as import('node:http').Server, graceMs);
      await closeWeb();
      await prepared.database.close();
    },
  };
}
