import { targets, useLink, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';
import { externalProps } from './button.js';
import { buttonsOf, hasRichText, str, useWords } from './shared.js';

/**
 * website-builder/widget 'footer-default': the logotype with the description, a column of links
 * per buttons array, and a copyright line with the widget's title.
 */
export function FooterWidget({ row }: { row: Expanded }) {
  const t = useT();
  const href = useLink();
  const words = useWords();
  const title = t(row.title);
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  const logotype = targets(row, 'widgetsToLogotypes', 'logotype')[0];
  const arrays = targets(row, 'widgetsToButtonsArrays', 'buttonsArray').filter((a) => buttonsOf(a).length > 0);
  return (
    <footer id={str(row.anchor) || undefined} className={cn('border-t border-slate-200 bg-white', str(row.className))}>
      <div className="mx-auto max-w-7xl px-4 py-12 lg:py-16">
        <div className="grid gap-10 lg:grid-cols-12">
          <div className="lg:col-span-5">
            {logotype && <Variant module="website-builder" entity="logotype" row={logotype} />}
            {subtitle && <p className="mt-4 font-medium text-slate-900">{subtitle}</p>}
            {hasRichText(description) && <RichTextView value={description} className="mt-3 max-w-sm text-sm leading-relaxed text-slate-600" />}
          </div>
          {arrays.length > 0 && (
            <nav aria-label={words('footerMenu')} className="grid grid-cols-2 gap-8 sm:grid-cols-[repeat(auto-fit,minmax(8rem,1fr))] lg:col-span-7">
              {arrays.map((array) => (
                <div key={array.id}>
                  {t(array.title) && <h2 className="text-sm font-semibold text-slate-900">{t(array.title)}</h2>}
                  <ul className="mt-3 space-y-1">
                    {buttonsOf(array).map((button) => {
                      const url = str(button.url);
                      return (
                        <li key={button.id}>
                          <a href={url ? href(url) : undefined} {...externalProps(url)} className="footer-link">
                            {t(button.title)}
                          </a>
                        </li>
                      );
                    })}
                  </ul>
                </div>
              ))}
            </nav>
          )}
        </div>
        <p className="mt-12 border-t border-slate-200 pt-6 text-sm text-slate-500">
          {`© ${title ? `${title}. ` : ''}${words('rights')}`}
        </p>
      </div>
    </footer>
  );
}
