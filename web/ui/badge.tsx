import type { ReactNode } from 'react';
import { cn } from './cn.js';

export function Badge({ children, className, title }: { children: ReactNode; className?: string; title?: string }) {
  return <span title={title} className={cn('inline-flex items-center rounded-full border border-slate-200 bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700', className)}>{children}</span>;
}
