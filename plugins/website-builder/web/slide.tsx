import { isExternal, targets, useLink, useT, type Expanded } from '../../../web/storefront/context.js';
import { cn } from '../../../web/ui/cn.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { ButtonsArrays, FileItems, Placeholder, hasRichText, str } from './shared.js';

const filesOf = (row: Expanded) => targets(row, 'slidesToFileStorageModuleFiles', 'fileStorageModuleFile');

/** a link over the whole slide (under its buttons), when the slide has a url */
function StretchedLink({ row, label }: { row: Expanded; label: string }) {
  const href = useLink();
  const url = str(row.url);
  if (!url || !href(url)) return null;
  const external = isExternal(url);
  return <a href={href(url)} aria-label={label || url} className="absolute inset-0 z-0" {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})} />;
}

/** a slide's texts in the page language and its first file */
function useSlide(row: Expanded) {
  const t = useT();
  return { title: t(row.title), subtitle: t(row.subtitle), description: t(row.description), file: filesOf(row)[0] };
}

/**
 * website-builder/slide 'full-width-banner' (and 'default'): its first file (or a gradient) filling
 * the slide, with title, subtitle and buttons over it; the whole slide links to its url if set.
 * Its parts are named in web/styles.css (`.banner`, `.banner-title`, …).
 */
export function BannerSlide({ row }: { row: Expanded }) {
  const { title, subtitle, description, file } = useSlide(row);
  return (
    <div className={cn('banner', str(row.className))}>
      {file ? (
        <div aria-hidden className="absolute inset-0">
          <FileItems files={[file]} container="h-full w-full" media="h-full w-full object-cover" />
          <div className="absolute inset-0 bg-gradient-to-r from-slate-950/80 via-slate-950/50 to-slate-950/10" />
        </div>
      ) : (
        <Placeholder seed={row.id} className="absolute inset-0">
          <div className="banner-shade" />
        </Placeholder>
      )}
      <StretchedLink row={row} label={title} />
      <div className="banner-body">
        <div className="mx-auto w-8/12">
          <div className="max-w-2xl">
            {subtitle && <p className="banner-kicker">{subtitle}</p>}
            {title && <h2 className="banner-title">{title}</h2>}
            {hasRichText(description) && <RichTextView value={description} className="banner-text" />}
            <ButtonsArrays row={row} relation="slidesToButtonsArrays" className="banner-actions" />
          </div>
        </div>
      </div>
    </div>
  );
}

/** website-builder/slide 'plain-container': a light container with title, description and buttons */
export function PlainSlide({ row }: { row: Expanded }) {
  const { title, subtitle, description, file } = useSlide(row);
  return (
    <div className={cn('relative h-full w-full overflow-hidden bg-slate-50 text-slate-900', str(row.className))}>
      <StretchedLink row={row} label={title} />
      <div className="pointer-events-none relative z-10 mx-auto flex h-full w-8/12 items-center gap-10">
        <div className="flex-1">
          {subtitle && <p className="mb-2 text-sm font-semibold uppercase tracking-wider text-indigo-600">{subtitle}</p>}
          {title && <h2 className="text-balance text-2xl font-bold tracking-tight sm:text-3xl lg:text-5xl">{title}</h2>}
          {hasRichText(description) && <RichTextView value={description} className="mt-4 text-slate-600 lg:text-lg" />}
          <ButtonsArrays row={row} relation="slidesToButtonsArrays" className="pointer-events-auto mt-6" />
        </div>
        {file && (
          <div className="hidden h-3/4 w-2/5 overflow-hidden rounded-xl shadow-md lg:block">
            <FileItems files={[file]} container="h-full w-full" media="h-full w-full object-cover" />
          </div>
        )}
      </div>
    </div>
  );
}
