import { createContext, useContext } from 'react';
import { Check, Minus } from 'lucide-react';
import type { EntityInfo, FieldInfo } from '../api.js';
import { enumLabel, shortId } from '../labels.js';
import { entityHref, Link } from '../router.js';
import { parseRichText, plainText } from '../../ui/rich-text-view.js';
import { FilePreview } from './file-widget.js';

const pad = (n: number) => String(n).padStart(2, '0');
/** DD.MM.YYYY HH:mm, the display of spec §9 */
export function displayDateTime(iso: string) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** DD.MM.YYYY for a date-only value ('2026-03-15'): the calendar day as stored, no time zone shift */
export function displayDate(value: string) {
  const m = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (m) return `${m[3]}.${m[2]}.${m[1]}`;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;
}

/** the titles of referenced rows a table has fetched, by '<entity id>:<row id>' */
export const TitlesContext = createContext<Map<string, string>>(new Map());
export const titleKey = (entityId: string, id: string) => `${entityId}:${id}`;

/** a key/value document in one line: 'name: Ann · email: ann@example.com' */
export function jsonSummary(value: unknown): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join(' · ');
  }
  return JSON.stringify(value);
}

/** long text kept to two lines; the whole of it on hover */
function Clamped({ text }: { text: string }) {
  return <span className="line-clamp-2 break-words" title={text.length > 40 ? text : undefined}>{text}</span>;
}

/** a referenced row by its title, linking to it; its short id while the title loads or when it is gone */
export function ReferenceCell({ target, id }: { target: EntityInfo | undefined; id: string }) {
  const titles = useContext(TitlesContext);
  if (!target) return <span className="font-mono text-xs" title={id}>{shortId(id)}</span>;
  const title = titles.get(titleKey(target.id, id));
  return (
    <Link href={entityHref(target, id)} title={`${target.title} ${id}`} className="line-clamp-2 break-words text-blue-700 hover:underline" data-ref-title={title ? '' : undefined} onClick={(e) => e.stopPropagation()}>
      {title ?? <span className="font-mono text-xs">{shortId(id)}</span>}
    </Link>
  );
}

/** one table cell, drawn by the field's kind */
export function Cell({ field, value, language, target }: { field: FieldInfo; value: unknown; language: string; target?: EntityInfo }) {
  if (value === null || value === undefined || value === '') return <span className="text-slate-400">—</span>;
  switch (field.kind) {
    case 'boolean':
      return value ? <Check aria-label="Yes" className="h-4 w-4 text-green-700" /> : <Minus aria-label="No" className="h-4 w-4 text-slate-400" />;
    case 'localized': {
      const map = value as Record<string, string>;
      const text = map[language] || Object.values(map).find(Boolean);
      if (!text) return <span className="text-slate-400">—</span>;
      return <Clamped text={field.format === 'rich-text' ? plainText(parseRichText(text)) : text} />;
    }
    case 'datetime':
      return <span className="whitespace-nowrap tabular-nums">{displayDateTime(String(value))}</span>;
    case 'date':
      return <span className="whitespace-nowrap tabular-nums">{displayDate(String(value))}</span>;
    case 'reference':
      return <ReferenceCell target={target} id={String(value)} />;
    case 'enum':
      return <span className="whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-xs">{enumLabel(String(value))}</span>;
    case 'json':
      return <Clamped text={jsonSummary(value)} />;
    case 'file':
      return (
        <span className="flex items-center gap-2" title={String(value)}>
          <FilePreview value={String(value)} className="h-10 w-10 shrink-0" />
        </span>
      );
    case 'integer':
    case 'number':
      return <span className="tabular-nums">{typeof value === 'number' ? value.toLocaleString('en') : String(value)}</span>;
    default:
      if (field.format === 'rich-text') return <Clamped text={plainText(parseRichText(String(value)))} />;
      return <Clamped text={String(value)} />;
  }
}
