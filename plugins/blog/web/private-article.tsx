import { useEffect, useState } from 'react';
import { Lock } from 'lucide-react';
import { useHref, type Expanded } from '../../../web/storefront/context.js';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { ArticleBody, ArticleColumn, ArticleFiles, ArticleHeading } from './parts.js';
import { useArticle } from './articles.js';

export const ME_PATH = '/api/rbac/subjects/authentication/me';
export const SIGN_IN_PATH = '/rbac/subject/authentication/select-method';

type SignedIn = 'unknown' | 'yes' | 'no';

/**
 * Whether the visitor is signed in: asked once after hydration (never during render, so server and
 * client agree on 'unknown'); 200 from /me means yes, anything else (or a failed call) no.
 */
export function useSignedIn(): SignedIn {
  const [state, setState] = useState<SignedIn>('unknown');
  useEffect(() => {
    let alive = true;
    fetch(ME_PATH, { credentials: 'include' })
      .then((r) => alive && setState(r.status === 200 ? 'yes' : 'no'))
      .catch(() => alive && setState('no'));
    return () => {
      alive = false;
    };
  }, []);
  return state;
}

function SignInCard() {
  const href = useHref();
  return (
    <div className="mt-8 flex flex-col items-center rounded-xl border border-slate-200 bg-slate-50 px-6 py-10 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-blue-100 text-blue-700">
        <Lock aria-hidden className="h-6 w-6" />
      </span>
      <h2 className="mt-4 text-xl font-semibold text-slate-900">Sign in to read this article</h2>
      <p className="mt-2 max-w-md text-slate-600">This article is for members. It takes a minute to sign in or create an account.</p>
      <a href={href(SIGN_IN_PATH)} className="mt-6 inline-flex h-10 items-center justify-center rounded-md bg-blue-600 px-5 text-sm font-medium text-white hover:bg-blue-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
        Sign in
      </a>
    </div>
  );
}

/** 'article-overview-with-private-content-default': title and subtitle for everyone, the rest for signed-in visitors */
export function ArticleOverviewPrivate({ row }: { row: Expanded }) {
  const article = useArticle(row);
  const signedIn = useSignedIn();
  if (!article) return null;
  return (
    <ArticleColumn row={row}>
      <ArticleHeading article={article} />
      {signedIn === 'unknown' && (
        <div className="mt-8 space-y-3" aria-busy="true" aria-label="Loading">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-11/12" />
          <Skeleton className="h-5 w-4/5" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      )}
      {signedIn === 'yes' && (
        <>
          <ArticleBody article={article} />
          <ArticleFiles article={article} />
        </>
      )}
      {signedIn === 'no' && <SignInCard />}
    </ArticleColumn>
  );
}
