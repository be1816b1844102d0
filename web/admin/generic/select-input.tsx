import { useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronsUpDown, X } from 'lucide-react';
import { entityApi, labelOf, type EntityInfo } from '../api.js';
import { useModel } from '../model.js';
import { searchColumns } from './columns.js';
import { cn } from '../../ui/cn.js';

/**
 * admin-select-input: a searchable select over an entity, showing each row's adminTitle or title.
 * A combobox: type to search, arrows to move, Enter to choose, Escape to close.
 */
export function AdminSelectInput({ entity, value, onChange, id, disabled, placeholder = 'Select…' }: {
  entity: EntityInfo;
  value: string | null | undefined;
  onChange: (id: string | null) => void;
  id?: string;
  disabled?: boolean;
  placeholder?: string;
}) {
  const model = useModel();
  const api = entityApi(entity);
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const selected = useQuery({ queryKey: [entity.module, entity.route, 'row', value], queryFn: () => api.findById(value!), enabled: !!value });
  const or = term.trim() ? searchColumns(entity, model.defaultLanguage).map((column) => ({ column, method: 'ilike' as const, value: term.trim() })) : undefined;
  const options = useQuery({ queryKey: [entity.module, entity.route, 'options', term.trim()], queryFn: () => api.find({ filters: or ? { or } : undefined, limit: 20 }), enabled: open });

  useEffect(() => {
    const close = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, []);
  const rows = options.data ?? [];
  const choose = (rowId: string | null) => {
    onChange(rowId);
    setOpen(false);
    setTerm('');
  };

  return (
    <div ref={box} className="relative">
      <div className="flex items-center gap-1">
        <input
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          disabled={disabled}
          className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/20"
          placeholder={value ? labelOf(selected.data, model.defaultLanguage) || value : placeholder}
          value={open ? term : value ? labelOf(selected.data, model.defaultLanguage) || value : ''}
          onFocus={() => setOpen(true)}
          onChange={(e) => { setTerm(e.target.value); setActive(0); setOpen(true); }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') { e.preventDefault(); setOpen(true); setActive((a) => Math.min(a + 1, rows.length - 1)); }
            else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((a) => Math.max(a - 1, 0)); }
            else if (e.key === 'Enter' && open && rows[active]) { e.preventDefault(); choose(rows[active].id); }
            else if (e.key === 'Escape') { e.stopPropagation(); setOpen(false); }
          }}
        />
        {value && !disabled && (
          <button type="button" aria-label="Clear" className="rounded p-1 text-slate-500 hover:bg-slate-100" onClick={() => choose(null)}><X className="h-4 w-4" /></button>
        )}
        <ChevronsUpDown aria-hidden className="pointer-events-none absolute right-10 top-3 h-4 w-4 text-slate-400" />
      </div>
      {open && (
        <ul id={listId} role="listbox" className="absolute z-50 mt-1 max-h-[10rem] w-full overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg">
          {options.isPending && <li className="px-3 py-1.5 text-slate-500">Loading...</li>}
          {options.data && !rows.length && <li className="px-3 py-1.5 text-slate-500">No found items</li>}
          {rows.map((r, i) => (
            <li
              key={r.id}
              role="option"
              aria-selected={r.id === value}
              className={cn('cursor-pointer px-3 py-1.5', i === active && 'bg-blue-50', r.id === value && 'font-medium')}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => { e.preventDefault(); choose(r.id); }}
            >
              {labelOf(r, model.defaultLanguage)} <span className="text-xs text-slate-400">{r.id.slice(0, 8)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
