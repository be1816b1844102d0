import { targets, useT, useTitleTag, Variant, type Expanded } from '../../../web/storefront/context.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';

function WidgetText({ row, className }: { row: Expanded; className?: string }) {
  const t = useT();
  // the page's h1 when this widget leads the page's content
  const Title = useTitleTag(row);
  if (!t(row.title) && !t(row.subtitle) && !t(row.description)) return null;
  return (
    <header className={className}>
      {t(row.title) && <Title className="text-3xl font-bold tracking-tight text-slate-900 lg:text-4xl">{t(row.title)}</Title>}
      {t(row.subtitle) && <p className="mt-3 text-lg text-slate-600">{t(row.subtitle)}</p>}
      {t(row.description) && <RichTextView value={t(row.description)} className="mt-4 text-slate-600" />}
    </header>
  );
}

function Forms({ row }: { row: Expanded }) {
  return (
    <div className="flex flex-col gap-8">
      {targets(row, 'widgetsToForms', 'form').map((form) => (
        <Variant key={form.id} module="crm" entity="form" row={form} />
      ))}
    </div>
  );
}

/** 'form-list-default': the widget's text above its forms, in one centred column */
export function FormListDefault({ row }: { row: Expanded }) {
  return (
    <section className={cn('py-12 lg:py-16', row.className as string)}>
      <div className="mx-auto max-w-2xl px-4">
        <WidgetText row={row} className="mb-8 text-center" />
        <Forms row={row} />
      </div>
    </section>
  );
}

/** 'form-list-wide': two columns on large screens, the widget's text on the left and its forms on the right */
export function FormListWide({ row }: { row: Expanded }) {
  return (
    <section className={cn('py-12 lg:py-20', row.className as string)}>
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-10 px-4 lg:grid-cols-2 lg:gap-16">
        <WidgetText row={row} className="lg:sticky lg:top-24 lg:self-start" />
        <Forms row={row} />
      </div>
    </section>
  );
}
