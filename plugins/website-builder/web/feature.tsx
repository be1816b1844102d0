import { useState } from 'react';
import * as arrowRight from 'lucide-react/icons/arrow-right';
import * as briefcase from 'lucide-react/icons/briefcase';
import * as codeXml from 'lucide-react/icons/code-xml';
import * as layers from 'lucide-react/icons/layers';
import * as layoutTemplate from 'lucide-react/icons/layout-template';
import * as palette from 'lucide-react/icons/palette';
import * as rocket from 'lucide-react/icons/rocket';
import * as sparkles from 'lucide-react/icons/sparkles';
import { targets, useT, type Expanded } from '../../../web/storefront/context.js';
import { Button } from '../../../web/ui/button.js';
import { cn } from '../../../web/ui/cn.js';
import { lucideIcon } from '../../../web/ui/icon.js';
import { Dialog } from '../../../web/ui/dialog.js';
import { RichTextView, richTextPlain } from '../../../web/ui/rich-text-view.js';
import { ButtonsArrays, FileItems, Placeholder, hashOf, hasRichText, str, useWords } from './shared.js';

const ICONS = [sparkles, layoutTemplate, codeXml, rocket, layers, palette].map(lucideIcon);
const Briefcase = lucideIcon(briefcase);
const ArrowRight = lucideIcon(arrowRight);
const filesOf = (row: Expanded) => targets(row, 'featuresToFileStorageModuleFiles', 'fileStorageModuleFile');

/** website-builder/feature 'default': a card with its first file (or a gradient), title, subtitle, description and buttons */
export function FeatureCard({ row }: { row: Expanded }) {
  const t = useT();
  const title = t(row.title);
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  const [file, ...more] = filesOf(row);
  const Icon = ICONS[hashOf(row.id) % ICONS.length];
  return (
    <article className={cn('group feature-card', str(row.className))}>
      {file ? (
        <FileItems files={[file]} container="aspect-[16/9] overflow-hidden bg-slate-100" media="h-full w-full object-cover transition-transform duration-500 group-hover:scale-[1.03]" />
      ) : (
        <Placeholder seed={row.id} className="relative flex aspect-[16/9] items-center justify-center">
          <span aria-hidden className="feature-icon">
            <Icon className="h-7 w-7" />
          </span>
        </Placeholder>
      )}
      <div className="flex flex-1 flex-col p-6">
        {subtitle && <p className="text-sm font-medium text-indigo-600">{subtitle}</p>}
        {title && <h3 className="mt-1 text-xl font-semibold tracking-tight text-slate-900">{title}</h3>}
        {hasRichText(description) && <RichTextView value={description} className="mt-3 text-slate-600" />}
        {more.length > 0 && (
          <div className="mt-4 grid grid-cols-3 gap-2">
            <FileItems files={more} container="aspect-square overflow-hidden rounded-lg bg-slate-100" media="h-full w-full object-cover" />
          </div>
        )}
        <ButtonsArrays row={row} relation="featuresToButtonsArrays" className="mt-auto pt-6" />
      </div>
    </article>
  );
}

/**
 * website-builder/feature 'vacancy': a card for a job opening; its button opens a dialog with
 * the title, subtitle and full description (and the feature's buttons, e.g. Apply).
 */
export function VacancyCard({ row }: { row: Expanded }) {
  const t = useT();
  const words = useWords();
  const [open, setOpen] = useState(false);
  const title = t(row.title);
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  const excerpt = richTextPlain(description).split('\n').find((line) => line.trim()) ?? '';
  return (
    <article className={cn('flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md', str(row.className))}>
      <div className="flex items-center gap-3">
        <span aria-hidden className="grid h-10 w-10 place-items-center rounded-xl bg-indigo-50 text-indigo-600">
          <Briefcase className="h-5 w-5" />
        </span>
        <span className="rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-600/20">{words('openPosition')}</span>
      </div>
      {title && <h3 className="mt-4 text-xl font-semibold tracking-tight text-slate-900">{title}</h3>}
      {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
      {excerpt && <p className="mt-3 line-clamp-3 text-slate-600">{excerpt}</p>}
      <div className="mt-auto pt-6">
        <Dialog
          open={open}
          onOpenChange={setOpen}
          title={title}
          description={subtitle || undefined}
          className="max-w-2xl"
          trigger={
            <Button variant="outline" className="group" aria-label={title ? `${words('details')}: ${title}` : undefined}>
              {words('details')}
              <ArrowRight className="arrow-nudge" />
            </Button>
          }
        >
          {hasRichText(description) && <RichTextView value={description} className="text-slate-700" />}
          <ButtonsArrays row={row} relation="featuresToButtonsArrays" className="mt-6" />
        </Dialog>
      </div>
    </article>
  );
}
