import { usePage, type PageContext } from './context.js';
import { cn } from '../ui/cn.js';
import { languageName, useWords } from './words.js';

/** the page's path percent-encoded segment by segment (an entity segment holds whatever its row's value is) */
const encodePath = (url: string) => '/' + url.split('/').filter(Boolean).map(encodeURIComponent).join('/');

/**
 * The address of the page being shown in another language: the default language has no prefix, the others
 * their code ('/blog/articles/x' → '/ru/blog/articles/x'; '/' → '/ru'), as the hreflang alternates say.
 */
export function pageIn(language: string, page: Pick<PageContext, 'url' | 'defaultLanguage'>): string {
  const path = encodePath(page.url);
  if (language === page.defaultLanguage) return path;
  return `/${language}${path === '/' ? '' : path}`;
}

/**
 * Links to the same page in each configured language; the current one is marked (aria-current) and looks
 * chosen. Plain links: keyboard reachable, each at least 40px high (tap targets ≥ 24px). `stacked` is the
 * mobile menu's form: the languages' names in full.
 * @example <LanguageSwitcher className="hidden lg:flex" />
 */
export function LanguageSwitcher({ className, stacked = false, onNavigate }: { className?: string; stacked?: boolean; onNavigate?: () => void }) {
  const page = usePage();
  const w = useWords();
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
                href={pageIn(language, page)}
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
