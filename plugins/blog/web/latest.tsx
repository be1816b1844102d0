import { useBrowserQuery } from '../../../web/storefront/browser-query.js';
import { createHttp } from '../../../runtime/client/index.js';
import { targets, useT, type Expanded } from '../../../web/storefront/context.js';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { useWords } from '../../../web/storefront/words.js';
import { ArticleCard, CardGrid, GridItem, Section, SectionHeader } from './parts.js';
import { useBlogWords } from './words.js';

/** how many articles the latest-articles widget shows */
export const LATEST_LIMIT = 6;

/** the public list of articles, newest first: the generic read, as any visitor gets it (no session, so nothing members-only) */
export const latestQuery = { orderBy: { and: [{ column: 'createdAt', method: 'desc' }] }, limit: LATEST_LIMIT } as const;

const publicHttp = createHttp({ baseUrl: '', fetch: (input, init) => fetch(input, { ...init, credentials: 'omit' }) });

/**
 * 'article-list-latest-default': the widget's title, subtitle and description, then the newest articles
 * (newest first, at most LATEST_LIMIT), without linking each one by hand. Asked for in the browser
 * (`GET /api/blog/articles?orderBy…createdAt desc&limit=6`, anonymously: only what every visitor may read),
 * so a new article shows at once and the cached page never holds a stale list. Until then (the server's
 * markup, a crawler, a browser without scripts) it shows the articles linked to the widget, if any, else
 * skeleton cards; the browser's first render is the same, so hydration matches, then it asks.
 */
export function ArticleListLatest({ row }: { row: Expanded }) {
  const t = useT();
  const w = useWords();
  const bw = useBlogWords();
  const linked = targets(row, 'widgetsToArticles', 'article').slice(0, LATEST_LIMIT);
  const query = useBrowserQuery<Expanded[]>({
    queryKey: ['blog', 'articles', 'latest', LATEST_LIMIT, row.id],
    queryFn: () => publicHttp.request<Expanded[]>('GET', '/api/blog/articles', { query: latestQuery }),
    retry: false,
    // the linked articles stand in until the list is asked for: stale at once, so the browser asks on mount
    ...(linked.length && { initialData: linked, initialDataUpdatedAt: 0 }),
  });
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      {query.data?.length ? (
        <CardGrid label={t(row.title) || w('articles')}>
          {query.data.map((article) => (
            <GridItem key={article.id}>
              <ArticleCard article={article} />
            </GridItem>
          ))}
        </CardGrid>
      ) : query.isError ? (
        <p role="alert" className="text-slate-600">{bw('latestFailed')}</p>
      ) : query.data ? (
        <p className="text-slate-600">{bw('noArticles')}</p>
      ) : (
        <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label={w('loading')}>
          {[0, 1, 2].map((i) => <Skeleton key={i} className="h-40 w-full rounded-xl" />)}
        </div>
      )}
    </Section>
  );
}
