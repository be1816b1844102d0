import { useEffect, useId, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronsUpDown, X } from 'lucide-react';
import { entityApi, labelOf, type EntityInfo, type FindParams, type Row } from '../api.js';
import { useModel } from '../model.js';
import { adminLanguage, shortId } from '../labels.js';
import { searchColumns } from './columns.js';
import { cn } from '../../ui/cn.js';

export const OPTIONS_PAGE = 20;

/** rows of an entity matching a search, 20 more at a time, with how many match in all */
export function useRowSearch(entity: EntityInfo, term: string, enabled: boolean, extra?: FindParams<Row>['filters']) {
  const model = useModel();
  const [limit, setLimit] = useState(OPTIONS_PAGE);
  const t = term.trim();
  useEffect(() => setLimit(OPTIONS_PAGE), [t]);
  const or = t ? searchColumns(entity, model.languages).map((column) => ({ column, method: 'ilike' as const, value: t })) : undefined;
  const filters = { ...(extra ?? {}), ...(or && { or }) };
  const q = useQuery({
    queryKey: [entity.module, entity.route, 'options', t, limit, extra ?? null],
    queryFn: () => entityApi(entity).page({ filters, limit }),
    enabled,
    placeholderData: keepPreviousData,
  });
  return { rows: q.data?.rows ?? [], total: q.data?.total, pending: q.isPending, error: q.error as Error | null, more: () => setLimit((l) => l + OPTIONS_PAGE) };
}

/** the title of one row, for a picker showing its current value */
export function useRowTitle(entity: EntityInfo | undefined, id: string | null | undefined) {
  const model = useModel();
  const q = useQuery({ queryKey: [entity?.module, entity?.route, 'row', id], queryFn: () => entityApi(entity!).findById(id!), enabled: !!entity && !!id, retry: false });
  return { title: q.data ? labelOf(q.data, adminLanguage(model)) : undefined, missing: !!q.error, row: q.data };
}

/**
 * admin-select-input: a searchable select over an entity, showing each row's title. A combobox: type to
 * search, arrows to move, Enter to choose, Escape to close the list (only the list). It says how many rows
 * match and shows 20 more at a time.
 */
export function AdminSelectInput({ entity, value, onChange, id, disabled, placeholder = 'Select…', invalid }: {
  entity: EntityInfo;
  value: string | null | undefined;
  onChange: (id: string | null) => void;
  id?: string;
  disabled?: boolean;
  placeholder?: string;
  invalid?: boolean;
}) {
  const model = useModel();
  const language = adminLanguage(model);
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const selected = useRowTitle(entity, value);
  const { rows, total, pending, more } = useRowSearch(entity, term, open);

  useEffect(() => {
    const close = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, []);
  const choose = (rowId: string | null) => {
    onChange(rowId);
    setOpen(false);
    setTerm('');
  };
  const shownValue = value ? (selected.title ?? (selected.missing ? `Missing: ${shortId(value)}` : '…')) : '';

  return (
    <div ref={box} className="relative" {...(open && { 'data-escape-layer': '' })}>
      <div className="flex items-center gap-1">
        <input
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-invalid={invalid || selected.missing || undefined}
          aria-activedescendant={open && rows[active] ? `${listId}-${rows[active].id}` : undefined}
          disabled={disabled}
          autoComplete="off"
          className={cn('h-10 w-full rounded-md border border-slate-300 bg-white px-3 pr-8 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/20 disabled:opacity-50', (invalid || selected.missing) && 'border-red-600')}
          placeholder={value ? shownValue : placeholder}
          value={open ? term : shownValue}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onChange={(e) => { setTerm(e.target.value); setActive(0); setOpen(true); }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') { e.preventDefault(); setOpen(true); setActive((a) => Math.min(a + 1, rows.length - 1)); }
            else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((a) => Math.max(a - 1, 0)); }
            else if (e.key === 'Enter' && open && rows[active]) { e.preventDefault(); choose(rows[active].id); }
            else if (e.key === 'Escape' && open) { e.stopPropagation(); setOpen(false); }
          }}
        />
        {value && !disabled && (
          <button type="button" aria-label="Clear" className="rounded p-1 text-slate-500 hover:bg-slate-100" onClick={() => choose(null)}><X className="h-4 w-4" /></button>
        )}
        <ChevronsUpDown aria-hidden className={cn('pointer-events-none absolute top-3 h-4 w-4 text-slate-400', value && !disabled ? 'right-10' : 'right-2')} />
      </div>
      {selected.missing && <p className="mt-1 text-xs text-red-700">The chosen row does not exist any more: choose another</p>}
      {open && (
        <div className="absolute z-50 mt-1 w-full rounded-md border border-slate-200 bg-white text-sm shadow-lg">
          <ul id={listId} role="listbox" aria-label={entity.title} className="max-h-[10rem] overflow-y-auto py-1">
            {pending && <li className="px-3 py-1.5 text-slate-500">Loading...</li>}
            {!pending && !rows.length && <li className="px-3 py-1.5 text-slate-500">No found items</li>}
            {rows.map((r, i) => (
              <li
                key={r.id}
                id={`${listId}-${r.id}`}
                role="option"
                aria-selected={r.id === value}
                className={cn('flex cursor-pointer items-baseline justify-between gap-2 px-3 py-1.5', i === active && 'bg-blue-50', r.id === value && 'font-medium')}
                onMouseEnter={() => setActive(i)}
                onMouseDown={(e) => { e.preventDefault(); choose(r.id); }}
              >
                <span className="truncate">{labelOf(r, language)}</span> <span className="shrink-0 font-mono text-xs text-slate-400">{shortId(r.id)}</span>
              </li>
            ))}
          </ul>
          {total !== undefined && (
            <div className="flex items-center justify-between gap-2 border-t border-slate-100 px-3 py-1 text-xs text-slate-500">
              <span aria-live="polite">{rows.length < total ? `${rows.length} of ${total} shown${term.trim() ? '' : ' — type to search'}` : `${total} ${total === 1 ? 'item' : 'items'}`}</span>
              {rows.length < total && (
                <button type="button" className="rounded px-1 font-medium text-blue-700 hover:underline" onMouseDown={(e) => e.preventDefault()} onClick={more}>Show more</button>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
