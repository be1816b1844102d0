import { targets, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { cn } from '../../../web/ui/cn.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { fileKind } from '../../file-storage/web/file.js';
import { FileItems, Section, SectionHeader, hasRichText, str } from './shared.js';

const filesOf = (row: Expanded) => targets(row, 'widgetsToFileStorageModuleFiles', 'fileStorageModuleFile');

/**
 * website-builder/widget 'default' and 'content-default': the anchored section with title,
 * subtitle and description, then its sliders, features (3 columns on lg), buttons arrays,
 * logotypes and files, each drawn by its own variant.
 */
export function ContentWidget({ row }: { row: Expanded }) {
  const sliders = targets(row, 'widgetsToSliders', 'slider');
  const features = targets(row, 'widgetsToFeatures', 'feature');
  const arrays = targets(row, 'widgetsToButtonsArrays', 'buttonsArray');
  const logotypes = targets(row, 'widgetsToLogotypes', 'logotype');
  const files = filesOf(row);
  return (
    <Section row={row} className="flex flex-col gap-8 lg:gap-10">
      <SectionHeader row={row} className="" />
      {sliders.map((slider) => (
        <Variant key={slider.id} module="website-builder" entity="slider" row={slider} />
      ))}
      {features.length > 0 && (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((feature) => (
            <Variant key={feature.id} module="website-builder" entity="feature" row={feature} />
          ))}
        </div>
      )}
      {arrays.length > 0 && (
        <div className="flex flex-wrap items-center gap-3">
          {arrays.map((array) => (
            <Variant key={array.id} module="website-builder" entity="buttons-array" row={array} />
          ))}
        </div>
      )}
      {logotypes.length > 0 && (
        <div className="flex flex-wrap items-center gap-x-10 gap-y-6 opacity-80">
          {logotypes.map((logotype) => (
            <Variant key={logotype.id} module="website-builder" entity="logotype" row={logotype} />
          ))}
        </div>
      )}
      {files.length > 0 && (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <FileItems files={files} container="overflow-hidden rounded-xl bg-slate-100" media="h-full w-full object-cover" />
        </div>
      )}
    </Section>
  );
}

/** website-builder/widget 'content-heading': a big page heading with its subtitle */
export function ContentHeading({ row }: { row: Expanded }) {
  const t = useT();
  const title = t(row.title);
  const subtitle = t(row.subtitle);
  return (
    <Section row={row} className="text-center">
      {title && <h1 className="mx-auto max-w-4xl text-balance text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl">{title}</h1>}
      {subtitle && <p className="mx-auto mt-5 max-w-2xl text-pretty text-lg text-slate-600 lg:text-xl">{subtitle}</p>}
    </Section>
  );
}

/**
 * website-builder/widget 'content-description': rich text and its files; exactly three images get
 * a three-column layout with a wide middle one.
 */
export function ContentDescription({ row }: { row: Expanded }) {
  const t = useT();
  const title = t(row.title);
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  const files = filesOf(row);
  const triptych = files.length === 3 && files.every((f) => fileKind(f) === 'image');
  return (
    <Section row={row}>
      <div className="max-w-3xl">
        {subtitle && <p className="mb-2 text-sm font-semibold uppercase tracking-wider text-indigo-600">{subtitle}</p>}
        {title && <h2 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h2>}
        {hasRichText(description) && <RichTextView value={description} className={cn('text-lg leading-relaxed text-slate-700', title && 'mt-4')} />}
      </div>
      {triptych ? (
        <div data-layout="three-images" className="mt-10 grid grid-cols-1 gap-4 sm:grid-cols-3 lg:grid-cols-[1fr_1.4fr_1fr] lg:items-center">
          <FileItems files={[files[0]]} container="aspect-[4/5] overflow-hidden rounded-2xl bg-slate-100" media="h-full w-full object-cover" />
          <FileItems files={[files[1]]} container="aspect-[4/5] overflow-hidden rounded-2xl bg-slate-100 shadow-lg lg:aspect-[4/5]" media="h-full w-full object-cover" />
          <FileItems files={[files[2]]} container="aspect-[4/5] overflow-hidden rounded-2xl bg-slate-100" media="h-full w-full object-cover" />
        </div>
      ) : (
        files.length > 0 && (
          <div className={cn('mt-10 grid gap-4', files.length > 1 && 'sm:grid-cols-2')}>
            <FileItems files={files} container="overflow-hidden rounded-2xl bg-slate-100" media="h-full w-full object-cover" />
          </div>
        )
      )}
    </Section>
  );
}

/** website-builder/widget 'content-divider': a quiet rule between sections */
export function ContentDivider({ row }: { row: Expanded }) {
  return (
    <div id={str(row.anchor) || undefined} className={cn('mx-auto max-w-7xl px-4 py-6', str(row.className))}>
      <hr className="border-0 border-t border-slate-200" />
    </div>
  );
}
