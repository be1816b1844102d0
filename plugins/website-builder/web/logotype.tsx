import { targets, useLink, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { cn } from '../../../web/ui/cn.js';
import { str } from './shared.js';

/**
 * website-builder/logotype 'default': its first file as the mark, else the title as a wordmark;
 * links to its url, or home.
 */
export function Logotype({ row }: { row: Expanded }) {
  const t = useT();
  const href = useLink();
  const title = t(row.title);
  const file = targets(row, 'logotypesToFileStorageModuleFiles', 'fileStorageModuleFile')[0];
  return (
    <a href={href(str(row.url) || '/')} aria-label={file ? title || undefined : undefined} className={cn('logo', str(row.className))}>
      {file ? (
        <Variant module="file-storage" entity="file" row={{ ...file, alt: file.alt ?? row.title, className: cn('h-8 w-auto', str(file.className)) }} />
      ) : (
        <>
          <span aria-hidden className="logo-mark">
            {title.charAt(0).toUpperCase()}
          </span>
          <span className="logo-text">{title}</span>
        </>
      )}
    </a>
  );
}
