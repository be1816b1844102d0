import { targets, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';

const files = (profile: Expanded) => targets(profile, 'profilesToFileStorageModuleFiles', 'fileStorageModuleFile');

function Files({ profile, className }: { profile: Expanded; className?: string }) {
  const list = files(profile);
  if (!list.length) return null;
  return (
    <div className={cn('grid grid-cols-1 gap-4 sm:grid-cols-2', className)}>
      {list.map((f) => (
        <Variant key={f.id} module="file-storage" entity="file" row={f} />
      ))}
    </div>
  );
}

/** social/profile 'overview-default': a profile's page section — title, subtitle, description, files */
export function ProfileOverviewDefault({ row }: { row: Expanded }) {
  const t = useT();
  return (
    <section className={cn('py-12 lg:py-16', row.className as string)}>
      <div className="mx-auto max-w-7xl px-4">
        <div className="mx-auto max-w-3xl">
          <header className="border-b border-slate-200 pb-6">
            <h1 className="text-4xl font-bold tracking-tight text-slate-900">{t(row.title) || String(row.slug ?? '')}</h1>
            {t(row.subtitle) && <p className="mt-3 text-xl text-slate-600">{t(row.subtitle)}</p>}
          </header>
          {t(row.description) && <RichTextView value={t(row.description)} className="mt-6 text-lg leading-relaxed text-slate-700" />}
          <Files profile={row} className="mt-8" />
        </div>
      </div>
    </section>
  );
}

/** social/profile 'default': the same fields as a card, for lists of profiles */
export function ProfileDefault({ row }: { row: Expanded }) {
  const t = useT();
  return (
    <article className={cn('flex h-full flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm', row.className as string)}>
      <Files profile={row} className="mb-4 sm:grid-cols-1" />
      <h3 className="card-title">{t(row.title) || String(row.slug ?? '')}</h3>
      {t(row.subtitle) && <p className="mt-1 text-sm font-medium text-blue-700">{t(row.subtitle)}</p>}
      {t(row.description) && <RichTextView value={t(row.description)} className="mt-3 text-slate-600" />}
    </article>
  );
}

/** social/widget 'default': the widget's title and subtitle, then its profiles through their variants */
export function SocialWidgetDefault({ row }: { row: Expanded }) {
  const t = useT();
  const profiles = targets(row, 'widgetsToProfiles', 'profile');
  // cards share a grid; a profile drawn as a full overview takes the whole width
  const cards = profiles.every((p) => !p.variant || p.variant === 'default');
  return (
    <section className={cn('py-12 lg:py-16', row.className as string)}>
      <div className="mx-auto max-w-7xl px-4">
        {(t(row.title) || t(row.subtitle)) && (
          <header className="mb-8 max-w-3xl">
            {t(row.title) && <h2 className="text-3xl font-bold tracking-tight text-slate-900">{t(row.title)}</h2>}
            {t(row.subtitle) && <p className="mt-3 text-lg text-slate-600">{t(row.subtitle)}</p>}
          </header>
        )}
        <div className={cards ? 'grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3' : 'flex flex-col gap-8'}>
          {profiles.map((p) => (
            <Variant key={p.id} module="social" entity="profile" row={p} />
          ))}
        </div>
      </div>
    </section>
  );
}
