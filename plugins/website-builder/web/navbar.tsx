import { useEffect, useId, useRef, useState } from 'react';
import * as menuIcon from 'lucide-react/icons/menu';
import * as xIcon from 'lucide-react/icons/x';
import { targets, usePage, useLink, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { cn } from '../../../web/ui/cn.js';
import { lucideIcon } from '../../../web/ui/icon.js';
import { HeaderItems, useHasHeaderItems, type HeaderComponent } from '../../../web/storefront/page.js';
import { LanguageSwitcher } from '../../../web/storefront/language-switcher.js';
import { FloatingSlot } from '../../../web/storefront/floating.js';
import { useWebsiteBuilderWords } from './words.js';
import { externalProps } from './button.js';
import { allButtons, str } from './shared.js';

const Menu = lucideIcon(menuIcon);
const X = lucideIcon(xIcon);

/** what the keyboard can reach in the open menu */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** the lg breakpoint: at and above it the links are inline and the menu closes */
const LARGE = '(min-width: 1024px)';

/**
 * Whether a link points at the page being shown, read as the link is drawn: a path without its leading '/'
 * ('blog') is '/blog', and a language prefix ('/ru/blog') is not part of it (the page url has none).
 */
export function isCurrent(url: string, pageUrl: string, languages: readonly string[] = []): boolean {
  if (!url || url.includes(':') || url.startsWith('#')) return false;
  const segments = url.split(/[?#]/)[0].split('/').filter(Boolean);
  if (segments.length && languages.includes(segments[0])) segments.shift();
  return '/' + segments.join('/') === (pageUrl.replace(/\/+$/, '') || '/');
}

function NavLinks({ buttons, className, linkClassName, onNavigate }: { buttons: Expanded[]; className: string; linkClassName: string; onNavigate?: () => void }) {
  const t = useT();
  const href = useLink();
  const page = usePage();
  return (
    <ul className={className}>
      {buttons.map((button) => {
        const url = str(button.url);
        const current = isCurrent(url, page.url, page.languages);
        return (
          <li key={button.id}>
            <a
              href={url ? href(url) : undefined}
              {...externalProps(url)}
              aria-current={current ? 'page' : undefined}
              onClick={onNavigate}
              className={cn(linkClassName, current ? 'text-slate-900' : 'text-slate-600', str(button.className))}
            >
              {t(button.title)}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * website-builder/widget 'navbar-default': a sticky header with the logotype and the buttons as
 * links; below lg a hamburger opens a full-screen menu with the same links (Escape closes it). It is the
 * page's header (HeaderComponent): the layout widgets placed before it (account menu, language) are drawn
 * at the end of its bar on large screens and under the links of its menu on small ones. The page's floating
 * controls (the cart button) are drawn in its bar (FloatingSlot), beside the menu's toggle on small screens.
 */
export const NavbarWidget: HeaderComponent = function NavbarWidget({ row }: { row: Expanded }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const header = useRef<HTMLElement>(null);
  const logotype = targets(row, 'widgetsToLogotypes', 'logotype')[0];
  const buttons = allButtons(row, 'widgetsToButtonsArrays');
  const hasItems = useHasHeaderItems();
  const menu = buttons.length > 0 || hasItems;
  const w = useWebsiteBuilderWords();

  useEffect(() => {
    if (!open) return;
    // the menu covers the page, so the keyboard stays in what is shown: the bar (logotype, toggle) and the menu
    const focusables = () => [...(header.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((el) => el.getClientRects().length > 0);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab') {
        const all = focusables();
        const at = all.indexOf(document.activeElement as HTMLElement);
        const next = e.shiftKey ? (at <= 0 ? all.length - 1 : -1) : at === -1 || at === all.length - 1 ? 0 : -1;
        if (next >= 0 && all[next]) {
          e.preventDefault();
          all[next].focus();
        }
        return;
      }
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onFocus = (e: FocusEvent) => {
      if (!header.current?.contains(e.target as Node)) toggle.current?.focus();
    };
    const large = window.matchMedia?.(LARGE);
    const onResize = () => large?.matches && setOpen(false);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocus);
    large?.addEventListener?.('change', onResize);
    return () => {
      document.body.style.overflow = overflow;
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
      large?.removeEventListener?.('change', onResize);
    };
  }, [open]);

  return (
    <header ref={header} id={str(row.anchor) || undefined} className={cn('sticky top-0 z-50 w-full', str(row.className))}>
      <div aria-hidden className={cn('absolute inset-0 border-b border-slate-200/80 backdrop-blur-md', open ? 'bg-white' : 'bg-white/80')} />
      <div className="relative z-50 mx-auto flex h-16 max-w-7xl items-center justify-between gap-6 px-4">
        {logotype ? <Variant module="website-builder" entity="logotype" row={logotype} /> : <span />}
        {buttons.length > 0 && (
          <nav aria-label={w('mainMenu')} className="hidden lg:ml-auto lg:block">
            <NavLinks buttons={buttons} className="flex items-center gap-1" linkClassName="nav-link" />
          </nav>
        )}
        {/* with a menu below lg the languages are in it; without one they stay in the bar */}
        <LanguageSwitcher className={menu ? 'hidden lg:block' : undefined} />
        <HeaderItems className="hidden items-center gap-2 lg:flex" />
        {/* the page's floating controls (the cart button): in the bar they cover nothing of the page; hidden while the menu covers the page */}
        <FloatingSlot className={cn('ml-auto lg:ml-0', open && 'hidden')} />
        {menu && (
          <button
            ref={toggle}
            type="button"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={open ? w('closeMenu') : w('openMenu')}
            onClick={() => setOpen((v) => !v)}
            className="-mr-2 inline-flex h-10 w-10 items-center justify-center rounded-md text-slate-700 transition-colors hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 lg:hidden"
          >
            {open ? <X className="h-6 w-6" /> : <Menu className="h-6 w-6" />}
          </button>
        )}
      </div>
      {menu && (
        <div id={menuId} hidden={!open} className="fixed inset-0 z-40 overflow-y-auto bg-white px-4 pb-10 pt-20 lg:hidden">
          {buttons.length > 0 && (
            <nav aria-label={w('mainMenu')} className="mx-auto max-w-7xl">
              <NavLinks
                buttons={buttons}
                onNavigate={() => setOpen(false)}
                className="flex flex-col divide-y divide-slate-100"
                linkClassName="menu-link"
              />
            </nav>
          )}
          <LanguageSwitcher stacked onNavigate={() => setOpen(false)} className="mx-auto mt-6 max-w-7xl border-t border-slate-100 pt-6" />
          <HeaderItems className="mx-auto mt-4 flex max-w-7xl flex-col items-stretch gap-3 border-t border-slate-100 pt-6" />
        </div>
      )}
    </header>
  );
};
NavbarWidget.header = true;
