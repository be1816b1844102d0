import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { join } from 'node:path';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/index.js';
import { loadGenerated } from './generated.js';
import { createApp } from './app.js';
import { ensureDefaults, isEmpty, seed } from './seed.js';
import type { Plugin } from './plugin.js';
import type { Logger } from 'pino';
import { mountWeb, type StorefrontRenderer, type WebMode } from './web.js';

export interface StartOptions {
  config: Config;
  root: string;
  plugins: Plugin[];
  /** defaults to <root>/generated and <root>/migrations */
  generatedDir?: string;
  migrationsDir?: string;
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
  close(): Promise<void>;
}

/** opens the database, applies pending migrations, seeds an empty database, and serves */
export async function prepare(opts: StartOptions) {
  const generated = await loadGenerated(opts.generatedDir ?? join(opts.root, 'generated'));
  const database = openDatabase(opts.config.databaseUrl, generated.tables);
  await database.migrate(opts.migrationsDir ?? join(opts.root, 'migrations'));
  const built = createApp({ model: generated.model, database, config: opts.config, plugins: opts.plugins, log: opts.log });
  const empty = opts.seed !== false && (await isEmpty(built.repo));
  await ensureDefaults(built.repo, opts.plugins.flatMap((p) => (p.defaults ? [p.defaults] : [])));
  let seeded = 0;
  if (empty) {
    seeded = await seed(built.repo, opts.plugins.flatMap((p) => (p.seed ? [p.seed] : [])));
  }
  return { ...built, database, model: generated.model, seeded };
}

export async function startServer(opts: StartOptions): Promise<Running & { seeded: number }> {
  const prepared = await prepare(opts);
  // the HTTP server first, so that Vite's HMR (development) attaches to it instead of a port of its own
  const server = createAdaptorServer({ fetch: prepared.app.fetch });
  const closeWeb = await mountWeb(prepared.app, opts.root, opts.web ?? 'off', prepared.ctx.services.storefront as StorefrontRenderer | undefined, { httpServer: server as import('node:http').Server, port: opts.config.port });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.config.port, process.env.HOST ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.config.port;
  return {
    url: `http://localhost:${port}`,
    port,
    database: prepared.database,
    server,
    seeded: prepared.seeded,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await closeWeb();
      await prepared.database.close();
    },
  };
}
