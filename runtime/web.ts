import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type WebMode = 'built' | 'vite' | 'off';

const isPage = (path: string) => !path.startsWith('/api/');

/**
 * Serves the web apps: the admin at /admin/ (a single-page app) and the storefront's client code.
 * 'built' serves web/dist (npm run build); 'vite' runs Vite's dev middleware (hot reload).
 */
export async function mountWeb(app: Hono, root: string, mode: WebMode): Promise<() => Promise<void>> {
  if (mode === 'off') return async () => undefined;
  app.get('/admin', (c) => c.redirect('/admin/', 301));
  if (mode === 'built') {
    const dist = join(root, 'web', 'dist');
    if (!existsSync(join(dist, 'admin', 'index.html'))) throw new Error('web/dist is missing: run `npm run build` first (or start without NODE_ENV=production to use Vite)');
    const adminHtml = readFileSync(join(dist, 'admin', 'index.html'), 'utf8');
    app.use('/assets/*', async (c, next) => {
      await next();
      if (c.res.ok) c.res.headers.set('cache-control', 'public, max-age=31536000, immutable');
    });
    app.use('/assets/*', serveStatic({ root: dist }));
    app.get('/admin/*', (c) => c.html(adminHtml, 200, { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }));
    return async () => undefined;
  }
  const { createServer } = await import('vite');
  const vite = await createServer({ configFile: join(root, 'web', 'vite.config.ts'), server: { middlewareMode: true, hmr: { port: Number(process.env.VITE_HMR_PORT ?? 24678) } }, appType: 'custom' });
  app.use('*', async (c, next) => {
    if (!isPage(c.req.path)) return next();
    const env = c.env as { incoming: IncomingMessage; outgoing: ServerResponse } | undefined;
    if (!env?.incoming) return next();
    const handled = await new Promise<boolean>((resolve) => {
      const done = () => resolve(true);
      env.outgoing.once('finish', done);
      vite.middlewares(env.incoming, env.outgoing, () => {
        env.outgoing.off('finish', done);
        resolve(false);
      });
    });
    if (handled || env.outgoing.headersSent) return RESPONSE_ALREADY_SENT;
    if (c.req.path.startsWith('/admin/')) {
      const html = await vite.transformIndexHtml(c.req.path, readFileSync(join(root, 'web', 'admin', 'index.html'), 'utf8'));
      return c.html(html);
    }
    return next();
  });
  return () => vite.close();
}
