import { Component, type ReactNode } from 'react';
import { PageProvider, Variant, type Expanded, type PageContext } from './context.js';

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
}

class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    console.error(error);
  }
  render() {
    return this.state.failed ? <div role="alert" className="mx-auto max-w-7xl px-4 py-6 text-red-700">Oh no! Something went wrong...</div> : this.props.children;
  }
}

function Blocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((b) => (
        <ErrorBoundary key={b.id}>
          <Variant module={b.module} entity="widget" row={b.widget} />
        </ErrorBoundary>
      ))}
    </>
  );
}

/** a page: the layout's widgets around the page's own, each drawn by its module's variant */
export function PageView({ data }: { data: PageData }) {
  return (
    <PageProvider value={data.context}>
      <div className="flex min-h-screen flex-col">
        <Blocks blocks={data.before} />
        <main className="flex-1">
          <Blocks blocks={data.content} />
        </main>
        <Blocks blocks={data.after} />
      </div>
    </PageProvider>
  );
}
