import { useSyncExternalStore } from 'react';
import { usePage, type PageContext } from './context.js';
import { cn } from '../ui/cn.js';
import { languageName, useWords } from './words.js';

/** the page's path percent-encoded segment by segment (an entity segment holds whatever its row's value is) */
const encodePath = (url: string) => '/' + url.split('/').filter(Boolean).map(encodeURIComponent).join('/');

/**
 * The address of the page being shown in another language: the default language has no prefix, the others
 * their code ('/blog/articles/x' → '/ru/blog/articles/x'; '/' → '/ru'), as the hreflang alternates say; `rest`, the
 * address's query and hash ('?order=…#top'), is kept as it is (a thank-you banner reads its ?order=).
 */
export function pageIn(language: string, page: Pick<PageContext, 'url' | 'defaultLanguage'>, rest = ''): string {
  const path = encodePath(page.url);
  if (language === page.defaultLanguage) return path + rest;
  return `/${language}${path === '/' ? '' : path}${rest}`;
}

const onAddressChange = (changed: () => void) => {
  addEventListener('hashchange', changed);
  addEventListener('popstate', changed);
  return () => {
    removeEventListener('hashchange', changed);
    removeEventListener('popstate', changed);
  };
};
const addressRest = () => location.search + location.hash;
const noRest = () => '';

/**
 * The query and hash of the address shown, followed as they change (a hash link, history): '' while the server
 * renders and while hydrating. The server adds the request's query to the language links of the HTML it sends
 * (`withQueryInLanguageLinks`, plugins/host/server/index.ts), since its cached page is one for every query.
 */
export const useAddressRest = () => useSyncExternalStore(onAddressChange, addressRest, noRest);

/**
 * Links to the same page in each configured language; the current one is marked (aria-current) and looks
 * chosen. Plain links: keyboard reachable, each at least 40px high (tap targets ≥ 24px). `stacked` is the
 * mobile menu's form: the languages' names in full.
 * @example <LanguageSwitcher className="hidden lg:flex" />
 */
export function LanguageSwitcher({ className, stacked = false, onNavigate }: { className?: string; stacked?: boolean; onNavigate?: () => void }) {
  const page = usePage();
  const w = useWords();
  const rest = useAddressRest();
  if (page.languages.length < 2) return null;
  return (
    <nav aria-label={w('language')} className={className}>
      <ul className={cn('flex items-center', stacked ? 'flex-wrap gap-2' : 'gap-1')}>
        {page.languages.map((language) => {
          const current = language === page.language;
          const name = languageName(language);
          return (
            <li key={language}>
              <a
                href={pageIn(language, page, rest)}
                // the server's HTML may hold the request's query already (see useAddressRest), hydration does not yet
                suppressHydrationWarning
                lang={language}
                aria-current={current ? 'true' : undefined}
                data-language={language}
                onClick={onNavigate}
                className={cn(
                  // `.lang-link` in web/styles.css; padding and text size are the bar's or the stacked form's
                  'lang-link',
                  stacked ? 'px-4 text-base' : 'px-2.5 text-sm',
                  current ? 'bg-slate-900 text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                )}
              >
                {stacked ? name : <>{language.toUpperCase()}<span className="sr-only">{` ${name}`}</span></>}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
