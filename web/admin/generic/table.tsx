import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronLeft, ChevronRight, Eye, EyeOff, Plus, Search } from 'lucide-react';
import { entityApi, type EntityInfo, type Row } from '../api.js';
import { useModel } from '../model.js';
import { Button } from '../../ui/button.js';
import { Input } from '../../ui/input.js';
import { Skeleton } from '../../ui/skeleton.js';
import { Dialog } from '../../ui/dialog.js';
import { lookup } from '../../registry.js';
import { Cell } from './cell.js';
import { searchColumns, sortColumn, tableColumns } from './columns.js';
import { RowActions } from './row.js';

export interface TableProps {
  entity: EntityInfo;
  /** only rows whose column equals the value (nested relation tables) */
  filter?: { column: string; value: string };
  /** values a new row starts with (the nested table's foreign key) */
  prefill?: Record<string, unknown>;
  title?: string;
}

const PAGE_SIZES = [10, 20, 50];

/** admin-table: server-side paging, sorting and search over one entity, with 'Add new' */
export function GenericTable({ entity, filter, prefill, title }: TableProps) {
  const model = useModel();
  const language = model.defaultLanguage;
  const [shown, setShown] = useState(true);
  const [adding, setAdding] = useState(false);
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<SortingState>([]);
  const [pageSize, setPageSize] = useState(20);
  const [page, setPage] = useState(0);
  const fields = useMemo(() => tableColumns(entity), [entity]);
  const api = useMemo(() => entityApi(entity), [entity]);

  const term = search.trim();
  const filters = {
    and: filter ? [{ column: filter.column, method: 'eq' as const, value: filter.value }] : [],
    ...(term && { or: searchColumns(entity, language).map((column) => ({ column, method: 'ilike' as const, value: term })) }),
  };
  const orderBy = sorting.length
    ? { and: sorting.map((s) => ({ column: sortColumn(fields.find((f) => f.name === s.id)!, language), method: s.desc ? ('desc' as const) : ('asc' as const) })) }
    : { and: [{ column: entity.relation ? 'orderIndex' : 'createdAt', method: (entity.relation ? 'asc' : 'desc') as 'asc' | 'desc' }] };
  const key = [entity.module, entity.route];
  const rows = useQuery({ queryKey: [...key, 'find', filters, orderBy, pageSize, page], queryFn: () => api.find({ filters, orderBy, limit: pageSize, offset: page * pageSize }), placeholderData: keepPreviousData });
  const total = useQuery({ queryKey: [...key, 'count', filters], queryFn: () => api.count({ filters }) });
  const pages = Math.max(1, Math.ceil((total.data ?? 0) / pageSize));
  const Form = lookup(entity.module, entity.name, 'admin-form');
  const RowView = lookup(entity.module, entity.name, 'admin-table-row');

  const columns = useMemo<ColumnDef<Row>[]>(
    () => [
      ...fields.map((f) => ({ id: f.name, header: f.title ?? f.name, accessorFn: (r: Row) => r[f.name], cell: (ctx: { getValue: () => unknown }) => <Cell field={f} value={ctx.getValue()} language={language} /> })),
    ],
    [fields, language],
  );
  const table = useReactTable({
    data: rows.data ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    pageCount: pages,
    state: { sorting },
    onSortingChange: (s) => {
      setSorting(s);
      setPage(0);
    },
  });
  const heading = title ?? entity.title;

  return (
    <section aria-label={heading} className="rounded-lg border border-slate-200 bg-white shadow-sm" data-entity={entity.id}>
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 p-3">
        <h2 className="mr-auto text-base font-semibold">{heading}</h2>
        <label className="relative">
          <span className="sr-only">Search {heading}</span>
          <Search className="pointer-events-none absolute left-2.5 top-2.5 h-4 w-4 text-slate-400" />
          <Input type="search" placeholder="Search" value={search} className="h-9 w-56 pl-8" onChange={(e) => { setSearch(e.target.value); setPage(0); }} />
        </label>
        <Button size="sm" variant="outline" onClick={() => setShown(!shown)} aria-expanded={shown}>
          {shown ? <EyeOff className="h-4 w-4" /> : <Eye className="h-4 w-4" />} {shown ? 'Hide' : 'Show'}
        </Button>
        <Button size="sm" variant="primary" onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" /> Add new
        </Button>
      </header>
      {shown && (
        <>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                {table.getHeaderGroups().map((hg) => (
                  <tr key={hg.id}>
                    <th scope="col" className="px-3 py-2">Id</th>
                    {hg.headers.map((h) => {
                      const sorted = h.column.getIsSorted();
                      return (
                        <th key={h.id} scope="col" aria-sort={sorted ? (sorted === 'desc' ? 'descending' : 'ascending') : 'none'} className="px-3 py-2">
                          <button type="button" className="inline-flex items-center gap-1 hover:text-slate-900" onClick={h.column.getToggleSortingHandler()}>
                            {flexRender(h.column.columnDef.header, h.getContext())}
                            {sorted === 'asc' ? <ArrowUp className="h-3 w-3" /> : sorted === 'desc' ? <ArrowDown className="h-3 w-3" /> : null}
                          </button>
                        </th>
                      );
                    })}
                    <th scope="col" className="px-3 py-2 text-right">Actions</th>
                  </tr>
                ))}
              </thead>
              <tbody aria-busy={rows.isFetching}>
                {rows.isPending &&
                  Array.from({ length: 3 }, (_, i) => (
                    <tr key={i}>
                      <td colSpan={fields.length + 2} className="px-3 py-2"><Skeleton className="h-6 w-full" /></td>
                    </tr>
                  ))}
                {rows.error && (
                  <tr><td colSpan={fields.length + 2} className="px-3 py-6 text-center text-red-700" role="alert">{(rows.error as Error).message}</td></tr>
                )}
                {rows.data && !rows.data.length && (
                  <tr><td colSpan={fields.length + 2} className="px-3 py-8 text-center text-slate-500">{term ? `Nothing matches "${term}"` : 'No found items'}</td></tr>
                )}
                {table.getRowModel().rows.map((r) =>
                  RowView ? (
                    <RowView key={r.id} entity={entity} row={r.original} cells={r.getVisibleCells().map((c) => ({ id: c.id, node: flexRender(c.column.columnDef.cell, c.getContext()) }))} />
                  ) : null,
                )}
              </tbody>
            </table>
          </div>
          <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-3 py-2 text-sm text-slate-600">
            <span aria-live="polite">{total.data ?? 0} {total.data === 1 ? 'item' : 'items'}</span>
            <div className="flex items-center gap-2">
              <label className="flex items-center gap-1">
                Rows
                <select className="h-8 rounded border border-slate-300 bg-white px-1" value={pageSize} onChange={(e) => { setPageSize(Number(e.target.value)); setPage(0); }}>
                  {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
                </select>
              </label>
              <Button size="sm" variant="outline" aria-label="Previous page" disabled={page === 0} onClick={() => setPage(page - 1)}><ChevronLeft className="h-4 w-4" /></Button>
              <span>Page {Math.min(page + 1, pages)} of {pages}</span>
              <Button size="sm" variant="outline" aria-label="Next page" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}><ChevronRight className="h-4 w-4" /></Button>
            </div>
          </footer>
        </>
      )}
      {Form && (
        <Dialog open={adding} onOpenChange={setAdding} title={`Add new: ${entity.title}`} className="max-h-[80vh]">
          <Form entity={entity} prefill={prefill} onSaved={() => setAdding(false)} />
        </Dialog>
      )}
    </section>
  );
}

export { RowActions };
