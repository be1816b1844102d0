import { useQuery } from '@tanstack/react-query';
import { Lock } from 'lucide-react';
import { createHttp } from '../../../runtime/client/index.js';
import { useHref, useT, type Expanded } from '../../../web/storefront/context.js';
import { Button } from '../../../web/ui/button.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { useSubject } from '../../rbac/web/session.js';
import { ArticleBody, ArticleColumn, ArticleFiles, ArticleHeading } from './parts.js';
import { useArticle } from './articles.js';
import { useWords } from '../../../web/storefront/words.js';
import { useBlogWords } from './words.js';

export const SIGN_IN_PATH = '/rbac/subject/authentication/select-method';
/** the article read with the session: the generic read leaves `privateContent` out for anyone not signed in */
export const articleReadPath = (id: string) => `/api/blog/articles/${encodeURIComponent(id)}`;

const http = createHttp({ baseUrl: '' });

function SignInCard() {
  const href = useHref();
  const w = useBlogWords();
  const sw = useWords();
  return (
    <div className="mt-8 flex flex-col items-center rounded-xl border border-slate-200 bg-slate-50 px-6 py-10 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-blue-100 text-blue-700">
        <Lock aria-hidden className="h-6 w-6" />
      </span>
      <h2 className="mt-4 text-xl font-semibold text-slate-900">{w('signInToRead')}</h2>
      <p className="mt-2 max-w-md text-slate-600">{w('membersOnly')}</p>
      <a href={href(SIGN_IN_PATH)} className="mt-6 inline-flex h-10 items-center justify-center rounded-md bg-blue-600 px-5 text-sm font-medium text-white hover:bg-blue-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
        {sw('signIn')}
      </a>
    </div>
  );
}

function Loading() {
  const w = useWords();
  return (
    <div className="mt-8 space-y-3" aria-busy="true" aria-label={w('loading')}>
      <Skeleton className="h-5 w-full" />
      <Skeleton className="h-5 w-11/12" />
      <Skeleton className="h-5 w-4/5" />
    </div>
  );
}

/**
 * The members-only text of an article, asked for once the session is known: GET /api/blog/articles/{id}
 * with the session cookie. The field's read access is 'signed-in' (schemas/blog/article.json), so the
 * server answers it to signed-in subjects only and never puts it in page data or cached HTML.
 */
function PrivateContent({ article, subjectId }: { article: Expanded; subjectId: string }) {
  const t = useT();
  const w = useBlogWords();
  const sw = useWords();
  const query = useQuery({
    queryKey: ['blog', 'private-content', article.id, subjectId],
    queryFn: () => http.request<Expanded>('GET', articleReadPath(article.id)),
    retry: false,
  });
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return (
      <div role="alert" className="mt-8 flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
        {w('privateFailed')}
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>{sw('tryAgain')}</Button>
      </div>
    );
  }
  const text = t(query.data.privateContent);
  return text ? <RichTextView value={text} className="mt-8 text-lg leading-relaxed text-slate-700" /> : null;
}

/**
 * 'article-overview-with-private-content-default': the article's public part (title, subtitle, description,
 * files) for everyone, then its `privateContent` for signed-in visitors, fetched in the browser after
 * sign-in; anyone else is asked to sign in. The private text is in no server response to a visitor.
 */
export function ArticleOverviewPrivate({ row }: { row: Expanded }) {
  const article = useArticle(row);
  const { status, me } = useSubject();
  if (!article) return null;
  return (
    <ArticleColumn row={row}>
      <ArticleHeading article={article} />
      <ArticleBody article={article} />
      {status === 'loading' && <Loading />}
      {status === 'signed-out' && <SignInCard />}
      {me && <PrivateContent article={article} subjectId={me.id} />}
      <ArticleFiles article={article} />
    </ArticleColumn>
  );
}
