import { useState } from 'react';
import { Check, MapPin } from 'lucide-react';
import { targets, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { cn } from '../../../web/ui/cn.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { ButtonsArrays, Section, SectionHeader, hasRichText, str, useWords } from './shared.js';

const featuresOf = (row: Expanded) => targets(row, 'widgetsToFeatures', 'feature');

/** website-builder/widget 'content-features-list': the header beside its features as a checked list */
export function ContentFeaturesList({ row }: { row: Expanded }) {
  const t = useT();
  const features = featuresOf(row);
  return (
    <Section row={row} className="grid gap-10 lg:grid-cols-12">
      <div className="lg:col-span-5">
        <SectionHeader row={row} className="lg:sticky lg:top-24" />
      </div>
      <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white lg:col-span-7">
        {features.map((feature) => {
          const description = t(feature.description);
          return (
            <li key={feature.id} className={cn('flex gap-4 p-6', str(feature.className))}>
              <span aria-hidden className="mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-full bg-indigo-600 text-white">
                <Check className="h-4 w-4" />
              </span>
              <div className="min-w-0">
                <h3 className="font-semibold text-slate-900">{t(feature.title)}</h3>
                {t(feature.subtitle) && <p className="text-sm text-slate-500">{t(feature.subtitle)}</p>}
                {hasRichText(description) && <RichTextView value={description} className="mt-2 text-slate-600" />}
              </div>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

/** website-builder/widget 'content-features-vacancy-list': its features drawn as vacancies */
export function ContentFeaturesVacancyList({ row }: { row: Expanded }) {
  const features = featuresOf(row);
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {features.map((feature) => (
          <Variant key={feature.id} module="website-builder" entity="feature" row={feature} variant="vacancy" />
        ))}
      </div>
    </Section>
  );
}

/**
 * website-builder/widget 'content-map': the header beside a map area; an overlay ('Click to
 * interact') keeps the page scrolling past it until the first click dismisses it.
 */
export function ContentMap({ row }: { row: Expanded }) {
  const t = useT();
  const words = useWords();
  const [active, setActive] = useState(false);
  const title = t(row.title);
  return (
    <Section row={row} className="grid gap-10 lg:grid-cols-12 lg:items-center">
      <div className="lg:col-span-5">
        <SectionHeader row={row} className="" />
        <ButtonsArrays row={row} relation="widgetsToButtonsArrays" className="mt-6" />
      </div>
      <div data-interactive={active} className="relative h-[320px] overflow-hidden rounded-2xl border border-slate-200 bg-slate-100 lg:col-span-7 lg:h-[420px]">
        <div role="img" aria-label={title ? `${words('map')}: ${title}` : words('map')} className="absolute inset-0">
          <div className="absolute inset-0 bg-[linear-gradient(to_right,rgba(148,163,184,0.25)_1px,transparent_1px),linear-gradient(to_bottom,rgba(148,163,184,0.25)_1px,transparent_1px)] bg-[length:40px_40px]" />
          <div className="absolute -left-4 -right-4 top-[58%] h-3 -rotate-6 bg-white shadow-sm" />
          <div className="absolute -bottom-4 -top-4 left-[38%] w-3 rotate-12 bg-white shadow-sm" />
          <div className="absolute right-[12%] top-[12%] h-24 w-32 rounded-3xl bg-emerald-200/70" />
          <div className="absolute bottom-[10%] left-[8%] h-20 w-40 rounded-[2rem] bg-sky-200/70" />
          <div className="absolute left-1/2 top-1/2 -translate-x-1/2 -translate-y-full">
            <MapPin className="h-10 w-10 fill-indigo-600 text-white drop-shadow-md" />
          </div>
        </div>
        {!active && (
          <button
            type="button"
            onClick={() => setActive(true)}
            className="group absolute inset-0 z-10 grid place-items-center bg-slate-900/10 transition-colors hover:bg-slate-900/20 focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-blue-600"
          >
            <span className="rounded-full bg-white/95 px-4 py-2 text-sm font-medium text-slate-900 shadow-md ring-1 ring-slate-900/5 transition-transform group-hover:scale-105">
              {words('interact')}
            </span>
          </button>
        )}
      </div>
    </Section>
  );
}
