import { createContext, useContext, type ComponentType } from 'react';
import { LeadBlock, PageProvider, Variant, type Expanded, type PageContext } from './context.js';
import { GlobalError, PageBoundary, RecoveryDone, WidgetBoundary } from './errors.js';
import { FloatingArea, FloatingDock } from './floating.js';
import { resolveVariant } from './variants.js';
import { useWords } from './words.js';

/** one widget slot of a page: a host widget pointing at a module's widget */
export interface Block {
  /** its key among the page's blocks (assemble.ts blockKey: short, from the link rows that place it) */
  id: string;
  module: string;
  widget: Expanded;
}

/** everything a storefront page is drawn from; the server fills it, the browser hydrates from it (`ShippedPage`) */
export interface PageData {
  context: PageContext;
  /** the head's: the document's <title> and <meta> tags; not in the page data it ships (no render reads them) */
  title: string;
  meta: Record<string, string>;
  /** layout widgets before the page's own, the page's own, layout widgets after */
  before: Block[];
  content: Block[];
  after: Block[];
  /**
   * Set when the requested page failed to render and this is the error page ('/500' from content, or the
   * built-in screen when there is none): the browser then recovers once (see errors.tsx). Never the error's text.
   */
  error?: { status: number };
  /**
   * The chunks whose code drew this page (web/registry's lazily declared variants, each chunk named by its file),
   * noted by the server while it rendered: the browser loads them before it hydrates.
   */
  chunks?: string[];
}

/** what a page's document ships for the browser to render from (its page data): all but the head, which the HTML has */
export type ShippedPage = Omit<PageData, 'title' | 'meta'>;

/**
 * A widget component that is the site's header marks itself `header = true` (the navbar): the layout
 * widgets placed before it (the account menu, a language switcher) are drawn inside it — in its bar on
 * large screens and in its menu on small ones — instead of as strips above it. Content decides what goes
 * in the header by the layout's order alone.
 */
export type HeaderComponent = ComponentType<{ row: Expanded }> & { header?: boolean };

const HeaderItemsContext = createContext<Block[]>([]);

/** the layout widgets a header draws (see HeaderComponent); nothing outside a header's page */
export function HeaderItems({ className }: { className?: string }) {
  const items = useContext(HeaderItemsContext);
  if (!items.length) return null;
  return (
    <div className={className}>
      <Blocks blocks={items} />
    </div>
  );
}

/** whether a header item is placed: for a header's layout to leave room (or none) */
export const useHasHeaderItems = () => useContext(HeaderItemsContext).length > 0;

/** the layout's widgets before the content, split at the first header: those before it go inside it */
function splitHeader(before: Block[], product?: string): { items: Block[]; rest: Block[] } {
  const at = before.findIndex((b) => (resolveVariant(b.module, 'widget', b.widget.variant, product) as HeaderComponent | undefined)?.header === true);
  return at > 0 ? { items: before.slice(0, at), rest: before.slice(at) } : { items: [], rest: before };
}

/** the layout's widgets before the content; inside the page's boundary, so a malformed block shows the error screen */
function Before({ blocks, product }: { blocks: Block[]; product?: string }) {
  const { items, rest } = splitHeader(blocks, product);
  return (
    <HeaderItemsContext.Provider value={items}>
      <Blocks blocks={rest} />
    </HeaderItemsContext.Provider>
  );
}

/** blocks in their order; with `lead`, the first one leads the page (its own title is the page's h1, useTitleTag) */
function Blocks({ blocks, lead = false }: { blocks: Block[]; lead?: boolean }) {
  return (
    <>
      {blocks.map((b, i) => (
        <LeadBlock key={b.id} id={lead && i === 0 ? b.widget.id : undefined}>
          <WidgetBoundary>
            <Variant module={b.module} entity="widget" row={b.widget} />
          </WidgetBoundary>
        </LeadBlock>
      ))}
    </>
  );
}

/** the error screen of a page the server could not draw, in the page's language */
function PageError({ builtIn }: { builtIn: boolean }) {
  const w = useWords();
  return <GlobalError message={builtIn ? w('serverError') : w('pageError')} recover className={builtIn ? 'min-h-[60vh] justify-center' : undefined} />;
}

/** the id of the page's main content: the skip link's target */
export const MAIN_ID = 'main-content';

/**
 * The page's first tab stop: a link to its main content, past the header's links (on the home page the cart button
 * was some thirty tabs in). Visually hidden until it has the keyboard's focus; in the page's language.
 */
function SkipLink() {
  const w = useWords();
  return (
    <a
      href={`#${MAIN_ID}`}
      className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-[100] focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-slate-900 focus:shadow-lg focus:outline-2 focus:outline-blue-600"
    >
      {w('skipToContent')}
    </a>
  );
}

/**
 * A page: the layout's widgets around the page's own, each drawn by its module's variant; a skip link to the
 * content comes first. An error page
 * adds the global error screen, which revalidates and reloads once; a page that rendered clears that retry.
 */
export function PageView({ data }: { data: ShippedPage }) {
  const builtIn = data.error && !data.before.length && !data.content.length && !data.after.length;
  return (
    <PageProvider value={data.context}>
      <PageBoundary>
        <FloatingArea>
          <SkipLink />
          <div className="flex min-h-screen flex-col">
            <Before blocks={data.before} product={data.context.product} />
            {/* focusable by the skip link only (tabIndex -1): following it moves the keyboard's focus here, not just the view */}
            <main id={MAIN_ID} tabIndex={-1} className="flex-1 focus:outline-none">
              <Blocks blocks={data.content} lead />
              {data.error && <PageError builtIn={!!builtIn} />}
              <FloatingDock />
            </main>
            <Blocks blocks={data.after} />
          </div>
        </FloatingArea>
        {!data.error && <RecoveryDone />}
      </PageBoundary>
    </PageProvider>
  );
}
