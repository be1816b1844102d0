import { createElement } from 'react';
import type { LucideIconData } from 'lucide-react';
import { cn } from './cn.js';

/**
 * A lucide icon drawn with its shapes alone: what lucide's components write on every <svg> (xmlns, width and height,
 * fill, stroke, its width, caps and joins, two classes) is `.icon` in web/styles.css, so a page repeating an arrow
 * nine times carries nine paths and not nine copies of those attributes. Its size is a class (`h-4 w-4`): it has
 * no other. Hidden from assistive technology, as lucide's are when they have no label.
 * `module` is a lucide icon file (`lucide-react/icons/<name>`): it exports the shapes its component draws as
 * `__iconData`, which lucide's type declarations do not name.
 * @example import * as arrowRight from 'lucide-react/icons/arrow-right'; const ArrowRight = lucideIcon(arrowRight);
 */
export function lucideIcon(module: unknown) {
  const { node } = (module as { __iconData: LucideIconData }).__iconData;
  return function Icon({ className }: { className?: string }) {
    return (
      <svg viewBox="0 0 24 24" aria-hidden="true" className={cn('icon', className)}>
        {node.map(([tag, attributes]) => createElement(tag, attributes))}
      </svg>
    );
  };
}
