import { renderToString } from 'react-dom/server';
import { PageView, type PageData } from '../../../web/storefront/page.js';
import { StorefrontShell } from '../../../web/storefront/shell.js';
import { encodePath } from './pages.js';
import { collectChunks } from '../../../web/registry.js';
import { readTracker } from './reads.js';

/** text for an element or a quoted attribute: every value written into the document passes here */
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** JSON inside a <script>: nothing in it can close the tag or start a comment */
const SCRIPT_UNSAFE = /[<>\u2028\u2029]/g;
const SCRIPT_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '\u2028': '\\u2028', '\u2029': '\\u2029' };
const scriptSafe = (json: string) => json.replace(SCRIPT_UNSAFE, (ch) => SCRIPT_ESCAPES[ch]);

/**
 * The script and style tags of a page: fixed, or made for the chunks of the variants the page drew with
 * (runtime/web.ts adds a modulepreload of each chunk and of what it imports, so the browser fetches them beside the
 * entry, before hydrating).
 */
export type PageAssets = string | ((chunks: string[]) => string);

/** how many pages' last reads are kept (all go when full) */
const READS_KEPT = 500;
/** by page (its language and url): the tracker of its last render through the proxies, and the page data it kept */
const lastReads = new Map<string, { reads: ReturnType<typeof readTracker>; kept: string; head: string }>();

/**
 * The whole HTML document of a storefront page: head metadata, server-rendered body, data to hydrate from.
 * `onReads` gets the fields the render read (reads.ts), for the host to plan the next assembly.
 */
export function renderDocument(data: PageData, assets: PageAssets, origin = '', onReads?: (paths: Set<string>) => void): string {
  // rendered from watched rows: the data the page ships holds only the fields this render read (reads.ts). A render
  // is a function of what it reads: when the values the page's last render read are all the same in this data (the
  // data kept by that render's reads is the same text, and so are the title and metadata, which no read is noted
  // for), this render reads the same ones, so it renders from the rows themselves and ships what those reads keep
  // (watching every read cost a render some 40%). The text kept is what the page ships anyway, so the check costs a
  // walk, not a digest of all the data.
  const key = `${data.context.language}\u0000${data.context.url}`;
  const head = JSON.stringify([data.title, data.meta]);
  const last = lastReads.get(key);
  const before = last && last.head === head ? JSON.stringify(last.reads.kept(data)) : undefined;
  const known = before !== undefined && before === last!.kept;
  const reads = known ? last!.reads : readTracker();
  const { result: body, chunks } = collectChunks(() =>
    renderToString(
      <StorefrontShell language={data.context.language}>
        <PageView data={known ? data : reads.watched(data)} />
      </StorefrontShell>,
    ),
  );
  const kept = known ? before : JSON.stringify(reads.kept(data));
  if (!known) {
    if (lastReads.size >= READS_KEPT) lastReads.clear();
    lastReads.set(key, { reads, kept, head });
  }
  onReads?.(reads.paths);
  const metas = Object.entries(data.meta)
    .filter(([name]) => name !== 'viewport')
    .map(([name, content]) => (name.startsWith('og:') ? `<meta property="${escapeHtml(name)}" content="${escapeHtml(content)}">` : `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`))
    .join('\n    ');
  // the url comes from the request (an entity segment is whatever the row's value is): encoded, then escaped
  const path = encodePath(data.context.url);
  // absolute (PUBLIC_URL), as search engines want them; x-default is the default language's
  const hrefOf = (l: string) => `${origin}${l === data.context.defaultLanguage ? '' : '/' + l}${path === '/' && l !== data.context.defaultLanguage ? '' : path}`;
  const alternates = [...data.context.languages, 'x-default']
    .map((l) => `<link rel="alternate" hreflang="${escapeHtml(l)}" href="${escapeHtml(hrefOf(l === 'x-default' ? data.context.defaultLanguage : l))}">`)
    .join('\n    ');
  return `<!doctype html>
<html lang="${escapeHtml(data.context.language)}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="${escapeHtml(data.meta.viewport ?? 'width=device-width, initial-scale=1')}">
    <title>${escapeHtml(data.title)}</title>
    ${metas}
    ${alternates}
    <link rel="icon" href="data:,">
    ${typeof assets === 'string' ? assets : assets(chunks)}
  </head>
  <body>
    <div id="root">${body}</div>
    <script id="__PAGE__" type="application/json">${scriptSafe(`${kept.slice(0, -1)}${kept.length > 2 ? ',' : ''}"chunks":${JSON.stringify(chunks)}}`)}</script>
  </body>
</html>`;
}

/**
 * Every place the page's last render showed a relation a page at a time (reads.ts `pagedPlaces`), by
 * `placeKey`: `data` must be the data that render was drawn from (renderDocument of it just
 * now). The host keeps them beside the page, so that GET /api/host/pages/rows needs no render of its own.
 */
export function pagedPlaces(data: PageData): Map<string, (rows: unknown[]) => unknown[]> {
  return lastReads.get(`${data.context.language}\u0000${data.context.url}`)?.reads.pagedPlaces(data) ?? new Map();
}

/** the last screen: when even the error page cannot be drawn (spec §8 global error screen) */
export function errorDocument(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Error</title></head>
<body style="font-family:system-ui,sans-serif;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0">
<main style="text-align:center"><p>${escapeHtml(message)}</p><a href="" style="display:inline-block;padding:.5rem 1rem;border-radius:.375rem;border:1px solid #cbd5e1;background:#fff;color:inherit;text-decoration:none">Reload</a></main></body></html>`;
}
