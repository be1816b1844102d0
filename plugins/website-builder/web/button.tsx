import { isExternal, useLink, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { BUTTON_VARIANTS, type ButtonVariant } from '../../../web/ui/button.js';
import { cn } from '../../../web/ui/cn.js';
import { buttonsOf, str } from './shared.js';

/** the same look as web/ui/button.tsx's Button, on a link (`.button-link` in web/styles.css; the padding is a utility, 'link' sets its own) */
export const LINK_BUTTON_BASE = 'button-link px-4';

/** text colours for the variants that inherit theirs, so they stay readable on dark banners */
const TEXT: Partial<Record<ButtonVariant, string>> = { outline: 'text-slate-900', ghost: 'hover:text-slate-900' };

/** target and rel for a url: external urls open in a new tab (spec §2) */
export const externalProps = (url: string) => (url && isExternal(url) ? { target: '_blank', rel: 'noopener noreferrer' } : {});

/**
 * website-builder/button, every variant: a link styled like the Button of the same variant;
 * internal urls get the language prefix, external ones open in a new tab.
 */
export function ButtonLink({ row }: { row: Expanded }) {
  const t = useT();
  const href = useLink();
  const url = str(row.url);
  const variant = (Object.hasOwn(BUTTON_VARIANTS, row.variant) ? row.variant : 'default') as ButtonVariant;
  return (
    <a
      href={url ? href(url) : undefined}
      {...externalProps(url)}
      title={t(row.subtitle) || undefined}
      data-variant={variant}
      className={cn(LINK_BUTTON_BASE, BUTTON_VARIANTS[variant], TEXT[variant], variant === 'link' && 'px-0', str(row.className))}
    >
      {t(row.title)}
    </a>
  );
}

/** website-builder/buttons-array, every variant: its buttons in a row ('column' stacks them) */
export function ButtonsArrayView({ row }: { row: Expanded }) {
  const buttons = buttonsOf(row);
  if (!buttons.length) return null;
  return (
    <div className={cn('flex flex-wrap items-center gap-3', row.variant === 'column' && 'flex-col items-stretch', str(row.className))}>
      {buttons.map((button) => (
        <Variant key={button.id} module="website-builder" entity="button" row={button} />
      ))}
    </div>
  );
}
