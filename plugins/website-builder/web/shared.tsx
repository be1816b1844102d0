import type { ReactNode } from 'react';
import { targets, useT, useTitleTag, Variant, type Expanded } from '../../../web/storefront/context.js';
import { cn } from '../../../web/ui/cn.js';
import { RichTextView, richTextPlain } from '../../../web/ui/rich-text-view.js';

export const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** the buttons of a buttons array, in order */
export const buttonsOf = (array: Expanded) => targets(array, 'buttonsArraysToButtons', 'button');

/** every button of a row's buttons arrays (through `relation`, e.g. 'widgetsToButtonsArrays'), in order */
export const allButtons = (row: Expanded, relation: string) => targets(row, relation, 'buttonsArray').flatMap(buttonsOf);

/** whether a rich-text value has any visible text */
export const hasRichText = (value: string) => richTextPlain(value).trim() !== '';

/** the module's interface strings, in the page's language (web/storefront/words.ts) */
export { useWebsiteBuilderWords as useWords } from './words.js';

const GRADIENTS = [
  'from-indigo-600 via-violet-600 to-fuchsia-500',
  'from-sky-600 via-blue-700 to-indigo-800',
  'from-emerald-600 via-teal-600 to-cyan-700',
  'from-violet-700 via-indigo-700 to-sky-600',
  'from-rose-500 via-orange-500 to-amber-400',
];

/** a stable number for a string (an id): the same on the server and in the browser */
export function hashOf(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

/**
 * a gradient with a dot pattern and two glows (`.dotted-overlay` in web/styles.css), chosen by `seed`: what a slide or
 * a feature shows when it has no file; position it with className ('relative …' or 'absolute inset-0')
 */
export function Placeholder({ seed, className, children }: { seed: string; className?: string; children?: ReactNode }) {
  return (
    <div aria-hidden className={cn('overflow-hidden bg-gradient-to-br', GRADIENTS[hashOf(seed) % GRADIENTS.length], className)}>
      <div className="dotted-overlay" />
      {children}
    </div>
  );
}

/** the section every content widget is: its anchor as id, its className, the layout width */
export function Section({ row, children, className }: { row: Expanded; children: ReactNode; className?: string }) {
  return (
    <section id={str(row.anchor) || undefined} className={cn('scroll-mt-20 py-12 lg:py-16', str(row.className))}>
      <div className={cn('mx-auto max-w-7xl px-4', className)}>{children}</div>
    </section>
  );
}

/**
 * title (the page's h1 when the widget leads the page, useTitleTag), subtitle and description of a widget, when it
 * has them; className replaces the default bottom margin
 */
export function SectionHeader({ row, className }: { row: Expanded; className?: string }) {
  const t = useT();
  const Title = useTitleTag(row);
  const title = t(row.title);
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  if (!title && !subtitle && !hasRichText(description)) return null;
  return (
    <header className={cn('max-w-3xl', className ?? 'mb-8 lg:mb-10')}>
      {subtitle && <p className="mb-2 text-sm font-semibold uppercase tracking-wider text-indigo-600">{subtitle}</p>}
      {title && <Title className="section-title">{title}</Title>}
      {hasRichText(description) && <RichTextView value={description} className="mt-4 text-lg leading-relaxed text-slate-600" />}
    </header>
  );
}

/** files drawn through the registry, each with extra classes for its container and media */
export function FileItems({ files, container, media }: { files: Expanded[]; container?: string; media?: string }) {
  return (
    <>
      {files.map((file) => (
        <Variant
          key={file.id}
          module="file-storage"
          entity="file"
          row={{ ...file, containerClassName: cn(container, str(file.containerClassName)), className: cn(media, str(file.className)) }}
        />
      ))}
    </>
  );
}

/** a row's buttons arrays, each drawn through the registry */
export function ButtonsArrays({ row, relation, className }: { row: Expanded; relation: string; className?: string }) {
  const arrays = targets(row, relation, 'buttonsArray');
  if (!arrays.length) return null;
  return (
    <div className={cn('flex flex-wrap items-center gap-3', className)}>
      {arrays.map((array) => (
        <Variant key={array.id} module="website-builder" entity="buttons-array" row={array} />
      ))}
    </div>
  );
}
