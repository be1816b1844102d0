import { Check, Minus } from 'lucide-react';
import type { FieldInfo } from '../api.js';
import { Badge } from '../../ui/badge.js';

const pad = (n: number) => String(n).padStart(2, '0');
/** DD.MM.YYYY HH:mm, the display of spec §9 */
export function displayDateTime(iso: string) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** one table cell, drawn by the field's kind */
export function Cell({ field, value, language }: { field: FieldInfo; value: unknown; language: string }) {
  if (value === null || value === undefined || value === '') return <span className="text-slate-400">—</span>;
  switch (field.kind) {
    case 'boolean':
      return value ? <Check aria-label="yes" className="h-4 w-4 text-green-700" /> : <Minus aria-label="no" className="h-4 w-4 text-slate-400" />;
    case 'localized': {
      const map = value as Record<string, string>;
      return <span>{map[language] ?? Object.values(map)[0] ?? <span className="text-slate-400">—</span>}</span>;
    }
    case 'datetime':
      return <span className="whitespace-nowrap tabular-nums">{displayDateTime(String(value))}</span>;
    case 'reference':
      return <Badge title={String(value)}>{String(value).slice(0, 8)}</Badge>;
    case 'enum':
      return <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{String(value)}</span>;
    case 'json':
      return <code className="text-xs">{JSON.stringify(value).slice(0, 60)}</code>;
    default:
      return <span className="line-clamp-2 break-words">{String(value)}</span>;
  }
}
