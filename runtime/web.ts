import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Context, Hono } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { accepted, addVary, answerHeader, etagMatches, isCompressible, setAnswerHeader, type Encoding } from './http/wire.js';
import { requestHeader } from './http/headers.js';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';

export type WebMode = 'built' | 'vite' | 'off';

const isServerRoute = (path: string) => path.startsWith('/api/') || path.startsWith('/files/');

/**
 * The Content-Security-Policy of the storefront's pages and the admin. Built pages load only their own
 * scripts: no inline script, no event-handler attribute (the page data is a JSON data block, which no
 * browser executes). Styles may be inline (React's style attributes, toasts); images and media may come
 * from any https address (file fields hold external urls). The admin adds 'unsafe-eval' for ajv, which
 * compiles the manifests' JSON Schemas into functions to validate forms in the browser. Vite's dev
 * server injects inline scripts and a websocket: in 'vite' mode the policy allows them.
 */
export function pageCsp(mode: 'built' | 'vite', admin: boolean): string {
  const script = mode === 'vite' ? "'self' 'unsafe-inline' 'unsafe-eval'" : admin ? "'self' 'unsafe-eval'" : "'self'";
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${mode === 'vite' ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** every HTML answer outside /api and /files (pages, the admin, error pages) carries the page policy */
function pagePolicy(app: Hono, mode: 'built' | 'vite') {
  const storefront = pageCsp(mode, false);
  const admin = pageCsp(mode, true);
  app.use('*', async (c, next) => {
    await next();
    // read and set where the answer keeps them (an answer made in memory builds no Fetch Headers for this)
    if (isServerRoute(c.req.path) || !answerHeader(c.res, 'content-type')?.startsWith('text/html')) return;
    setAnswerHeader(c.res, 'content-security-policy', c.req.path.startsWith('/admin') ? admin : storefront);
  });
}
const isPage = (path: string) => !isServerRoute(path) && !path.startsWith('/admin') && !path.startsWith('/assets/');

/**
 * Serves the web apps: the admin at /admin/ (a single-page app) and the storefront's client code.
 * 'built' serves web/dist (npm run build); 'vite' runs Vite's dev middleware (hot reload).
 */
export interface StorefrontRenderer {
  /** `assets`: the page's script and style tags, or a function making them for the lazy modules the page drew with */
  render(c: Context, assets: string | ((modules: string[]) => string)): Promise<Response>;
  /** loads what the first page needs, once the server listens, so that the first visitor does not wait for it */
  warm?(): Promise<unknown>;
}

const VITE_PREAMBLE = `<script type="module">import RefreshRuntime from "/@react-refresh"; RefreshRuntime.injectIntoGlobalHook(window); window.$RefreshReg$ = () => {}; window.$RefreshSig$ = () => (type) => type; window.__vite_plugin_react_preamble_installed__ = true;</script>`;

/**
 * The storefront entry's script, its chunks and styles, from Vite's build manifest; for a page, also a
 * modulepreload of each lazily loaded chunk it drew with and of the chunks those import (web/registry.ts's
 * registerLazy: a chunk is named by its source file's path from the root without the extension,
 * 'plugins/blog/web/latest'), so that the browser fetches them beside the entry instead of after it.
 */
function builtAssets(dist: string): (chunks: string[]) => string {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[]; imports?: string[]; isDynamicEntry?: boolean }>;
  const entry = manifest['storefront/main.tsx'];
  if (!entry) throw new Error('web/dist has no storefront entry: run `npm run build`');
  const css = new Set<string>();
  const preload = new Set<string>();
  const walk = (key: string) => {
    const chunk = manifest[key];
    chunk?.css?.forEach((c) => css.add(c));
    chunk?.imports?.forEach((i) => {
      if (manifest[i] && !preload.has(manifest[i].file)) {
        preload.add(manifest[i].file);
        walk(i);
      }
    });
  };
  walk('storefront/main.tsx');
  const common = [
    ...[...css].map((c) => `<link rel="stylesheet" href="/${c}">`),
    ...[...preload].map((f) => `<link rel="modulepreload" href="/${f}">`),
    `<script type="module" src="/${entry.file}"></script>`,
  ].join('\n    ');
  // each lazily loaded chunk (a key is its source relative to web/) and the chunks it imports that the entry does not load already
  const byName = new Map<string, string[]>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue;
    const name = posix.join('web', key).replace(/\.[cm]?[jt]sx?$/, '');
    const files = new Set<string>();
    const add = (k: string) => {
      const c = manifest[k];
      if (!c || files.has(c.file) || preload.has(c.file) || c.file === entry.file) return;
      files.add(c.file);
      c.imports?.forEach(add);
    };
    add(key);
    byName.set(name, [...files]);
  }
  return (chunks) => {
    const files = new Set(chunks.flatMap((m) => byName.get(m) ?? []));
    return [common, ...[...files].map((f) => `<link rel="modulepreload" href="/${f}">`)].join('\n    ');
  };
}

interface AssetFile {
  type: string;
  etag: string;
  bytes: Uint8Array<ArrayBuffer>;
  /** the same bytes compressed at build time (scripts/web-budget.ts precompress), when smaller */
  encoded: Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>;
}

/**
 * The built assets (hashed names, so immutable), read into memory once: each answered in the encoding the
 * browser accepts that the build wrote (.br, .gz), with its own Content-Type, `Content-Encoding` and
 * `Vary: Accept-Encoding` for every compressible type. Anything else under /assets/ goes on (404).
 */
function builtAssetFiles(dir: string) {
  const files = new Map<string, AssetFile>();
  const read = (p: string) => new Uint8Array(readFileSync(p));
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const path = join(dir, name);
    if (name.endsWith('.br') || name.endsWith('.gz') || !statSync(path).isFile()) continue;
    const bytes = read(path);
    const encoded: AssetFile['encoded'] = {};
    if (existsSync(`${path}.br`)) encoded.br = read(`${path}.br`);
    if (existsSync(`${path}.gz`)) encoded.gzip = read(`${path}.gz`);
    const type = getMimeType(name) ?? 'application/octet-stream';
    files.set(name, { type, bytes, encoded, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` });
  }
  return (c: Context, next: () => Promise<void>) => {
    const file = files.get(c.req.path.slice('/assets/'.length));
    if (!file) return next();
    const headers = new Headers({ 'content-type': file.type, 'cache-control': 'public, max-age=31536000, immutable', etag: file.etag });
    // the same comparison as every other answer's validator (weak, a list, `*`)
    if (etagMatches(requestHeader(c, 'if-none-match'), file.etag)) return new Response(null, { status: 304, headers });
    let body = file.bytes;
    if (isCompressible(file.type)) {
      addVary(headers, 'Accept-Encoding');
      const encoding = accepted(requestHeader(c, 'accept-encoding')).find((e) => file.encoded[e]);
      if (encoding) {
        body = file.encoded[encoding]!;
        headers.set('content-encoding', encoding);
      }
    }
    headers.set('content-length', String(body.length));
    return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}

/**
 * A page's form sent by the browser itself (web/ui/form.tsx `PostForm`, whose script had not run): its body is never
 * read, parsed or logged, and the visitor goes back to the page by GET (303), its own query kept. The path's leading
 * slashes fold into one, so that `//host` never makes a redirect to another site.
 */
function backToPage(c: Context) {
  const url = new URL(c.req.url);
  return c.redirect(`${url.pathname.replace(/^\/+/, '/')}${url.search}`, 303);
}

/** every other GET is a storefront page, rendered on the server; a POST to one goes back to it (`backToPage`) */
function mountPages(app: Hono, storefront: StorefrontRenderer | undefined, assets: string | ((modules: string[]) => string)) {
  if (!storefront) return;
  app.get('*', (c, next) => (isPage(c.req.path) ? storefront.render(c, assets) : next()));
  app.post('*', (c, next) => (isPage(c.req.path) ? backToPage(c) : next()));
}

/** what Vite's dev middleware attaches to: this server's own HTTP server (for HMR) and a cache of its own */
export interface DevServerOptions {
  /** the server's HTTP server: HMR's websocket shares its port, so two dev servers never share an HMR port */
  httpServer?: import('node:http').Server;
  /** the port asked for, naming this server's own Vite cache folder (.tmp/vite/<port>) */
  port?: number;
}

/**
 * What Vite's dev middleware may serve at /@fs/<absolute path> (F16): the web apps (web/), each plugin's browser part
 * (plugins/<module>/web/), the dependencies and this server's own pre-bundled ones. A shared file the browser imports
 * from elsewhere (engine/links.ts, runtime/client/, runtime/money.ts, plugins/web.ts, …) is served once a module that
 * imports it has been: Vite allows a file "imported from an allowed file" (its import analysis records it), and the
 * browser always asks for the importer first. Never the rest of the project: the server's source (plugins' server/,
 * runtime/, engine/'s server side, scripts/, tests/), the SQLite database at ./data/app.db and every upload under
 * ./data/files, which Vite's default (the whole workspace) gave any visitor. Refused by name as well, wherever they
 * are: databases (wherever DATABASE_URL puts them), the plugins' server folders, test files, with Vite's own defaults
 * (.env, keys, .git).
 */
export function devServedFiles(root: string, cacheDir: string): { strict: true; allow: string[]; deny: string[] } {
  const plugins = join(root, 'plugins');
  // Vite matches these against paths with forward slashes
  const slashed = root.replace(/\\/g, '/');
  const pluginWebs = existsSync(plugins) ? readdirSync(plugins).map((name) => join(plugins, name, 'web')).filter((dir) => existsSync(dir) && statSync(dir).isDirectory()) : [];
  return {
    strict: true,
    allow: [join(root, 'web'), ...pluginWebs, join(root, 'node_modules'), cacheDir],
    deny: [
      '.env',
      '.env.*',
      '*.{crt,pem,key}',
      '**/.git/**',
      '**/*.{db,sqlite,sqlite3}',
      '**/*.{db,sqlite,sqlite3}-{wal,shm,journal}',
      `${slashed}/plugins/*/server/**`,
      `${slashed}/{web,plugins,engine,runtime}/**/*.test.{ts,tsx}`,
    ],
  };
}

/**
 * Vite's own error answers (its 403 'Restricted' page names the absolute path asked for and every allowed folder; a
 * failed transform may name files) keep their status and say only that status, as plain text: nothing of this
 * machine's file system. Undone (`restore`) once Vite has answered or passed the request on.
 */
function plainViteErrors(res: ServerResponse): () => void {
  const { write, end, writeHead } = res;
  const call = (fn: unknown, args: unknown[]) => (fn as (...a: unknown[]) => unknown).apply(res, args);
  let replaced = false;
  const replacing = () => {
    if (!replaced && res.statusCode >= 400 && !res.headersSent) {
      replaced = true;
      for (const name of ['content-length', 'content-encoding', 'etag']) res.removeHeader(name);
      res.setHeader('content-type', 'text/plain; charset=utf-8');
    }
    return replaced;
  };
  // an error's status and headers are kept, less those of the body it replaces (Node's own `end` comes here too)
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status < 400) return call(writeHead, [status, ...rest]);
    res.statusCode = status;
    const headers = rest.find((r) => r && typeof r === 'object') as Record<string, string> | undefined;
    for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
    replacing();
    return call(writeHead, [status]);
  }) as ServerResponse['writeHead'];
  res.write = ((...args: unknown[]) => (replacing() ? true : call(write, args))) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    if (!replacing()) return call(end, args);
    return call(end, [`${res.statusCode} ${STATUS_CODES[res.statusCode] ?? 'Error'}\n`, ...args.filter((a) => typeof a === 'function')]);
  }) as ServerResponse['end'];
  return () => {
    res.write = write;
    res.end = end;
    res.writeHead = writeHead;
  };
}

export async function mountWeb(app: Hono, root: string, mode: WebMode, storefront?: StorefrontRenderer, dev: DevServerOptions = {}): Promise<() => Promise<void>> {
  if (mode === 'off') return async () => undefined;
  pagePolicy(app, mode);
  app.get('/admin', (c) => c.redirect('/admin/', 301));
  if (mode === 'built') {
    const dist = join(root, 'web', 'dist');
    if (!existsSync(join(dist, 'admin', 'index.html'))) throw new Error('web/dist is missing: run `npm run build` first (or start without NODE_ENV=production to use Vite)');
    const adminHtml = readFileSync(join(dist, 'admin', 'index.html'), 'utf8');
    app.get('/assets/*', builtAssetFiles(join(dist, 'assets')));
    app.get('/admin/*', (c) => c.html(adminHtml, 200, { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }));
    mountPages(app, storefront, builtAssets(dist));
    return async () => undefined;
  }
  // each dev server keeps its own pre-bundled dependencies and attaches HMR to its own HTTP server: two dev
  // servers side by side never share a cache folder or an HMR port
  // not awaited: the server listens (and serves the API) at once, and Vite starts once it does (or on the first web
  // request, whichever is first), so that loading it does not hold the listening up; web requests wait for it
  let started: ReturnType<typeof startVite> | undefined;
  const cacheDir = join(root, '.tmp', 'vite', String(dev.port || process.pid));
  const startVite = () => import('vite').then(({ createServer }) => createServer({
    configFile: join(root, 'web', 'vite.config.ts'),
    cacheDir,
    server: {
      middlewareMode: true,
      hmr: dev.httpServer ? { server: dev.httpServer } : { port: Number(process.env.VITE_HMR_PORT ?? 24678) },
      fs: devServedFiles(root, cacheDir),
    },
    appType: 'custom',
  }));
  const vite = () => {
    if (!started) {
      started = startVite();
      started.catch(() => undefined);
    }
    return started;
  };
  if (dev.httpServer) dev.httpServer.once('listening', () => void vite());
  else void vite();
  app.use('*', async (c, next) => {
    // Vite's /__open-in-editor spawns an editor process on this machine for any file named: never a visitor's to call
    if (isServerRoute(c.req.path) || c.req.path.startsWith('/__open-in-editor')) return next();
    const server = await vite();
    const env = c.env as { incoming: IncomingMessage; outgoing: ServerResponse } | undefined;
    if (!env?.incoming) return next();
    const restore = plainViteErrors(env.outgoing);
    const handled = await new Promise<boolean>((resolve) => {
      const done = () => resolve(true);
      env.outgoing.once('finish', done);
      server.middlewares(env.incoming, env.outgoing, () => {
        env.outgoing.off('finish', done);
        resolve(false);
      });
    }).finally(restore);
    if (handled || env.outgoing.headersSent) return RESPONSE_ALREADY_SENT;
    if (c.req.path.startsWith('/admin/')) {
      const html = await server.transformIndexHtml(c.req.path, readFileSync(join(root, 'web', 'admin', 'index.html'), 'utf8'));
      return c.html(html);
    }
    return next();
  });
  mountPages(app, storefront, `${VITE_PREAMBLE}\n    <script type="module" src="/@vite/client"></script>\n    <script type="module" src="/storefront/main.tsx"></script>`);
  return async () => {
    if (started) await (await started).close();
  };
}
