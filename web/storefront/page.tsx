import { PageProvider, Variant, type Expanded, type PageContext } from './context.js';
import { GlobalError, PageBoundary, RecoveryDone, SERVER_ERROR, WidgetBoundary } from './errors.js';

/** one widget slot of a page: a host widget pointing at a module's widget */
export interface Block {
  /** the host widget's id */
  id: string;
  module: string;
  widget: Expanded;
}

/** everything a storefront page renders from; the server fills it, the browser hydrates from it */
export interface PageData {
  context: PageContext;
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
}

function Blocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((b) => (
        <WidgetBoundary key={b.id}>
          <Variant module={b.module} entity="widget" row={b.widget} />
        </WidgetBoundary>
      ))}
    </>
  );
}

/**
 * A page: the layout's widgets around the page's own, each drawn by its module's variant. An error page
 * adds the global error screen, which revalidates and reloads once; a page that rendered clears that retry.
 */
export function PageView({ data }: { data: PageData }) {
  const builtIn = data.error && !data.before.length && !data.content.length && !data.after.length;
  return (
    <PageProvider value={data.context}>
      <PageBoundary>
        <div className="flex min-h-screen flex-col">
          <Blocks blocks={data.before} />
          <main className="flex-1">
            <Blocks blocks={data.content} />
            {data.error && <GlobalError message={builtIn ? SERVER_ERROR : 'This page could not be shown.'} recover className={builtIn ? 'min-h-[60vh] justify-center' : undefined} />}
          </main>
          <Blocks blocks={data.after} />
        </div>
        {!data.error && <RecoveryDone />}
      </PageBoundary>
    </PageProvider>
  );
}
