import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Eye, EyeOff, Filter, Plus, Search, X } from 'lucide-react';
import { entityApi, labelOf, type EntityInfo, type FieldInfo, type ModelInfo, type Row } from '../api.js';
import { useModel } from '../model.js';
import { adminLanguage, enumLabel, fieldTitle, plural, polymorphicTarget } from '../labels.js';
import { entityHref, Link } from '../router.js';
import { Button } from '../../ui/button.js';
import { Input } from '../../ui/input.js';
import { Skeleton } from '../../ui/skeleton.js';
import { lookup } from '../../registry.js';
import { Cell, ReferenceCell, TitlesContext, titleKey } from './cell.js';
import { filterFields, searchColumns, sortable, sortColumn, tableColumns } from './columns.js';
import { FormDialog, IdBadge, RowActions } from './row.js';
import { AdminSelectInput } from './select-input.js';
import { DEFAULT_STATE, listFilters, PAGE_SIZES, type TableState } from './table-state.js';

export interface TableProps {
  entity: EntityInfo;
  /** only rows whose column equals the value (nested relation tables) */
  filter?: { column: string; value: string };
  /** values a new row starts with (the nested table's foreign key) */
  prefill?: Record<string, unknown>;
  title?: string;
  /** the list's state held by the caller (the page's address); else the table keeps its own */
  state?: TableState;
  onStateChange?: (state: TableState) => void;
  /** opens a row (the page puts it in its address); else its Edit dialog opens here */
  onOpen?: (row: Row) => void;
  /** a row was created (the page opens it, so its relations can be added) */
  onCreated?: (row: Row) => void;
}

/**
 * The entities owned through a relation from this one (a subject's identities and profiles), that have a
 * title to show: each becomes a column of the titles linked to the row.
 */
export function ownedThrough(model: ModelInfo, entity: EntityInfo) {
  return model.entities.flatMap((owned) => {
    const o = owned.owner;
    if (!o || o.kind !== 'through') return [];
    const relation = model.entities.find((e) => e.id === o.relation);
    const near = relation?.fields.find((f) => f.name === o.subjectField);
    if (!relation || near?.target !== entity.id) return [];
    if (!owned.fields.some((f) => ['adminTitle', 'title', 'name', 'email', 'slug'].includes(f.name) && f.readable !== false && !f.secret)) return [];
    return [{ owned, relation, subjectField: o.subjectField, targetField: o.targetField }];
  });
}

/**
 * The rows whose owned-through rows (the columns ownedThrough adds: a subject's identities) contain the search
 * term: the search looks in what the table shows, so a subject is found by its identity's email. Ready when every
 * owned entity has answered (one that cannot be read adds nothing).
 */
function useOwnedSearch(model: ModelInfo, entity: EntityInfo, term: string) {
  const owned = useMemo(() => ownedThrough(model, entity), [model, entity]);
  const results = useQueries({
    queries: owned.map((o) => ({
      queryKey: ['owned-search', o.relation.id, term],
      enabled: !!term,
      staleTime: 30_000,
      queryFn: async (): Promise<string[]> => {
        const columns = searchColumns(o.owned, model.languages);
        if (!columns.length) return [];
        const hits = await entityApi(o.owned).find({ filters: { or: columns.map((column) => ({ column, method: 'ilike' as const, value: term })) }, limit: 1000 });
        if (!hits.length) return [];
        const links = await entityApi(o.relation).find({ filters: { and: [{ column: o.targetField, method: 'inArray', value: hits.map((h) => h.id) }] }, limit: 1000 });
        return [...new Set(links.map((l) => String(l[o.subjectField])))];
      },
    })),
  });
  const ids = term ? [...new Set(results.flatMap((r) => r.data ?? []))].sort() : [];
  return { ids, ready: !term || results.every((r) => !r.isPending) };
}

/** the titles of every row the shown page references, fetched once per target entity */
function useTitles(model: ModelInfo, entity: EntityInfo, rows: Row[], fields: FieldInfo[]) {
  const language = adminLanguage(model);
  const wanted = new Map<string, Set<string>>();
  const want = (target: string | undefined, id: unknown) => {
    if (!target || typeof id !== 'string' || !id) return;
    if (!wanted.has(target)) wanted.set(target, new Set());
    wanted.get(target)!.add(id);
  };
  for (const f of fields) {
    const poly = polymorphicTarget(entity, f);
    for (const r of rows) {
      if (f.kind === 'reference') want(f.target, r[f.name]);
      else if (poly) {
        const target = model.entities.find((e) => e.module === r[poly.moduleField] && e.name === poly.name);
        want(target?.id, r[f.name]);
      }
    }
  }
  const list = [...wanted].map(([target, ids]) => ({ target, ids: [...ids].sort() }));
  const results = useQueries({
    queries: list.map(({ target, ids }) => ({
      queryKey: ['titles', target, ids],
      queryFn: () => entityApi(model.entities.find((e) => e.id === target)!).byIds(ids),
      staleTime: 30_000,
    })),
  });
  return useMemo(() => {
    const map = new Map<string, string>();
    results.forEach((q, i) => q.data?.forEach((r) => map.set(titleKey(list[i]!.target, r.id), labelOf(r, language))));
    return map;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [results.map((r) => r.dataUpdatedAt).join(), language]);
}

/** for each owned-through entity: row id → the owned rows' ids, and their titles */
function useOwned(model: ModelInfo, entity: EntityInfo, rows: Row[]) {
  const owned = useMemo(() => ownedThrough(model, entity), [model, entity]);
  const ids = rows.map((r) => r.id).sort();
  const links = useQueries({
    queries: owned.map((o) => ({
      queryKey: ['titles', 'owned', o.relation.id, ids],
      queryFn: () => entityApi(o.relation).find({ filters: { and: [{ column: o.subjectField, method: 'inArray', value: ids }] }, limit: 1000 }),
      enabled: ids.length > 0,
    })),
  });
  const byRow = owned.map((o, i) => {
    const m = new Map<string, string[]>();
    for (const l of links[i]?.data ?? []) {
      const s = String(l[o.subjectField]);
      if (!m.has(s)) m.set(s, []);
      m.get(s)!.push(String(l[o.targetField]));
    }
    return m;
  });
  const targets = owned.map((_, i) => [...new Set([...byRow[i]!.values()].flat())].sort());
  const titles = useQueries({
    queries: owned.map((o, i) => ({ queryKey: ['titles', o.owned.id, targets[i]], queryFn: () => entityApi(o.owned).byIds(targets[i]!), enabled: targets[i]!.length > 0 })),
  });
  return owned.map((o, i) => ({ ...o, byRow: byRow[i]!, titles: new Map((titles[i]?.data ?? []).map((r) => [r.id, labelOf(r, adminLanguage(model))])) }));
}

/** the filter controls: a select per choice, a from–to per date, a picker per reference */
function Filters({ entity, state, onChange }: { entity: EntityInfo; state: TableState; onChange: (filters: Record<string, string>) => void }) {
  const model = useModel();
  const set = (key: string, value: string | null | undefined) => {
    const next = { ...state.filters };
    if (value) next[key] = value;
    else delete next[key];
    onChange(next);
  };
  const select = 'h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm';
  return (
    // columns of at least 20rem, as many as fit: the two dates of a from–to fit side by side, and wrap
    // rather than run into the next filter (a fieldset is min-content wide unless told otherwise)
    <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,20rem),1fr))] gap-3 border-b border-slate-200 bg-slate-50 p-3" role="group" aria-label="Filters" data-filters="">
      {filterFields(entity).map((f) => {
        const id = `filter-${entity.module}-${entity.name}-${f.name}`;
        const title = fieldTitle(f, model);
        if (f.kind === 'enum' || f.kind === 'boolean') {
          const values = f.kind === 'boolean' ? ['true', 'false'] : (f.values ?? []);
          return (
            <label key={f.name} className="flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-600" htmlFor={id}>
              {title}
              <select id={id} className={select} value={state.filters[f.name] ?? ''} onChange={(e) => set(f.name, e.target.value)}>
                <option value="">Any</option>
                {values.map((v) => <option key={v} value={v}>{f.kind === 'boolean' ? (v === 'true' ? 'Yes' : 'No') : enumLabel(v)}</option>)}
              </select>
            </label>
          );
        }
        if (f.kind === 'date' || f.kind === 'datetime') {
          return (
            <fieldset key={f.name} className="flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-600" data-filter-range="">
              <legend className="mb-1">{title}</legend>
              <div className="flex min-w-0 flex-wrap items-center gap-1">
                <Input type="date" aria-label={`${title} from`} className="h-9 min-w-[8.5rem] flex-1 basis-[8.5rem] px-2" value={state.filters[`${f.name}.from`] ?? ''} onChange={(e) => set(`${f.name}.from`, e.target.value)} />
                <span aria-hidden>–</span>
                <Input type="date" aria-label={`${title} to`} className="h-9 min-w-[8.5rem] flex-1 basis-[8.5rem] px-2" value={state.filters[`${f.name}.to`] ?? ''} onChange={(e) => set(`${f.name}.to`, e.target.value)} />
              </div>
            </fieldset>
          );
        }
        const target = model.entities.find((e) => e.id === f.target);
        if (!target) return null;
        return (
          <div key={f.name} className="flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-600">
            <label htmlFor={id}>{title}</label>
            <AdminSelectInput id={id} entity={target} value={state.filters[f.name]} placeholder="Any" onChange={(v) => set(f.name, v)} />
          </div>
        );
      })}
      {Object.keys(state.filters).length > 0 && (
        <div className="flex items-end">
          <Button size="sm" variant="ghost" onClick={() => onChange({})}><X className="h-4 w-4" /> Clear filters</Button>
        </div>
      )}
    </div>
  );
}

/** admin-table: paging, sorting, search and filters on the server, with 'Add new'; the page's address keeps them */
export function GenericTable({ entity, filter, prefill, title, state: given, onStateChange, onOpen, onCreated }: TableProps) {
  const model = useModel();
  const language = adminLanguage(model);
  const [own, setOwn] = useState<TableState>(DEFAULT_STATE);
  const state = given ?? own;
  const setState = (patch: Partial<TableState>) => (onStateChange ?? setOwn)({ ...state, ...patch });
  const [shown, setShown] = useState(true);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Row | undefined>();
  const [showFilters, setShowFilters] = useState(() => Object.keys(state.filters).length > 0);
  const [search, setSearch] = useState(state.q);
  // the address changed from outside (Back, a link): show its search
  useEffect(() => setSearch(state.q), [state.q]);
  // a nested table is filtered by its key: that column would say the same on every row
  const fields = useMemo(() => tableColumns(entity).filter((f) => f.name !== filter?.column), [entity, filter?.column]);
  const api = useMemo(() => entityApi(entity), [entity]);

  const ownedSearch = useOwnedSearch(model, entity, state.q.trim());
  const filters = listFilters(entity, state, model.languages, filter, ownedSearch.ids);
  const orderBy = state.sort.length
    ? { and: state.sort.flatMap((s) => { const f = fields.find((x) => x.name === s.id); return f ? [{ column: sortColumn(f, language), method: s.desc ? ('desc' as const) : ('asc' as const) }] : []; }) }
    : { and: [{ column: entity.relation ? 'orderIndex' : 'createdAt', method: (entity.relation ? 'asc' : 'desc') as 'asc' | 'desc' }] };
  const list = useQuery({
    queryKey: [entity.module, entity.route, 'page', filters, orderBy, state.size, state.page],
    queryFn: () => api.page({ filters, orderBy, limit: state.size, offset: state.page * state.size }),
    placeholderData: keepPreviousData,
    // a search waits for the rows its owned rows match
    enabled: ownedSearch.ready,
  });
  const rows = list.data?.rows;
  const total = list.data?.total;
  const pages = Math.max(1, Math.ceil((total ?? 0) / state.size));
  // a page past the end (rows deleted, a stale address): go to the last one
  useEffect(() => {
    if (total !== undefined && state.page > 0 && state.page >= pages) setState({ page: pages - 1 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [total, pages, state.page]);
  const titles = useTitles(model, entity, rows ?? [], fields);
  const owned = useOwned(model, entity, rows ?? []);
  const RowView = lookup(entity.module, entity.name, 'admin-table-row');
  const open = onOpen ?? setEditing;

  const columns = useMemo<ColumnDef<Row>[]>(
    () => [
      ...fields.map((f) => {
        const poly = polymorphicTarget(entity, f);
        const target = f.kind === 'reference' ? model.entities.find((e) => e.id === f.target) : undefined;
        return {
          id: f.name,
          header: fieldTitle(f, model),
          enableSorting: sortable(f),
          accessorFn: (r: Row) => r[f.name],
          cell: (ctx: { getValue: () => unknown; row: { original: Row } }) => {
            if (poly && ctx.getValue()) {
              const t = model.entities.find((e) => e.module === ctx.row.original[poly.moduleField] && e.name === poly.name);
              return <ReferenceCell target={t} id={String(ctx.getValue())} />;
            }
            return <Cell field={f} value={ctx.getValue()} language={language} target={target} />;
          },
        } as ColumnDef<Row>;
      }),
      ...owned.map((o) => ({
        id: `owned:${o.owned.id}`,
        header: plural(o.owned.title),
        enableSorting: false,
        cell: (ctx: { row: { original: Row } }) => {
          const ids = o.byRow.get(ctx.row.original.id) ?? [];
          if (!ids.length) return <span className="text-slate-400">—</span>;
          return (
            <span className="line-clamp-2 break-words">
              {ids.map((id, i) => (
                <span key={id}>
                  {i > 0 && ', '}
                  <Link href={entityHref(o.owned, id)} className="text-blue-700 hover:underline" onClick={(e) => e.stopPropagation()}>{o.titles.get(id) ?? '…'}</Link>
                </span>
              ))}
            </span>
          );
        },
      } as ColumnDef<Row>)),
    ],
    [fields, language, model, entity, owned],
  );
  const sorting = state.sort;
  const table = useReactTable({
    data: rows ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    pageCount: pages,
    state: { sorting },
    onSortingChange: (updater) => setState({ sort: typeof updater === 'function' ? updater(sorting) : updater, page: 0 }),
  });
  const heading = title ?? plural(entity.title);
  const filterCount = Object.keys(state.filters).length;
  const narrowed = !!state.q.trim() || filterCount > 0;
  const addNew = (
    <Button size="sm" variant="primary" onClick={() => setAdding(true)}>
      <Plus className="h-4 w-4" /> Add new
    </Button>
  );

  /**
   * Loading, a failed load and an empty list are drawn under the table, not in it: a block as wide as the list,
   * so that on a phone they are not cut off inside the scrolling desktop table (which is not shown there).
   */
  let status: ReactNode = null;
  if (list.isPending) {
    status = (
      <div aria-hidden className="flex flex-col gap-2 px-3 py-2" data-table-status="loading">
        {Array.from({ length: 3 }, (_, i) => <Skeleton key={i} className="h-6 w-full" />)}
      </div>
    );
  } else if (list.error && !rows) {
    status = (
      <div className="flex flex-wrap items-center justify-center gap-x-2 gap-y-3 break-words px-3 py-6 text-center text-red-700" role="alert" data-table-status="error">
        <span className="min-w-0 max-w-full">{(list.error as Error).message.split(' | ')[0]}</span> <Button size="sm" variant="outline" onClick={() => list.refetch()}>Retry</Button>
      </div>
    );
  } else if (rows && !rows.length) {
    status = (
      <div className="break-words px-3 py-10 text-center text-slate-600" data-table-status="empty">
        <p className="font-medium">No found items</p>
        {narrowed ? (
          <>
            {state.q.trim() && <p className="mt-1 text-sm text-slate-500">Nothing matches "{state.q.trim()}"</p>}
            <Button size="sm" variant="outline" className="mt-3" onClick={() => { setSearch(''); setState({ q: '', filters: {}, page: 0 }); }}>Clear search and filters</Button>
          </>
        ) : (
          <div className="mt-3 flex justify-center">{addNew}</div>
        )}
      </div>
    );
  }
  const body = status
    ? null
    : table.getRowModel().rows.map((r) =>
        RowView ? (
          <RowView key={r.id} entity={entity} row={r.original} onOpen={open} cells={r.getVisibleCells().map((c) => ({ id: c.id, node: flexRender(c.column.columnDef.cell, c.getContext()) }))} />
        ) : null,
      );

  return (
    <section aria-label={heading} className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-sm" data-entity={entity.id}>
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 p-3">
        <h2 className="mr-auto flex items-baseline gap-2 text-base font-semibold">
          {heading}
          {total !== undefined && <span className="text-sm font-normal text-slate-500" aria-label={`${total} in all`}>{total}</span>}
        </h2>
        <label className="relative w-full sm:w-56">
          <span className="sr-only">Search {heading}</span>
          <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 h-4 w-4 text-slate-400" />
          <Input
            type="search"
            placeholder="Search"
            value={search}
            className="h-9 pl-8"
            onChange={(e) => {
              setSearch(e.target.value);
              setState({ q: e.target.value, page: 0 });
            }}
          />
        </label>
        {filterFields(entity).length > 0 && (
          <Button size="sm" variant="outline" aria-expanded={showFilters} onClick={() => setShowFilters(!showFilters)}>
            <Filter className="h-4 w-4" /> Filters{filterCount ? ` (${filterCount})` : ''}
          </Button>
        )}
        <Button size="sm" variant="outline" onClick={() => setShown(!shown)} aria-expanded={shown}>
          {shown ? <EyeOff className="h-4 w-4" /> : <Eye className="h-4 w-4" />} {shown ? 'Hide' : 'Show'}
        </Button>
        {addNew}
      </header>
      {shown && (
        <>
          {showFilters && <Filters entity={entity} state={state} onChange={(f) => setState({ filters: f, page: 0 })} />}
          <TitlesContext.Provider value={titles}>
            {/* below the small breakpoint each row is a card: its title, id, a few fields and the actions in view */}
            {rows && rows.length > 0 && (
              <ul className="divide-y divide-slate-100 sm:hidden" aria-label={heading}>
                {table.getRowModel().rows.map((r) => {
                  const cells = r.getVisibleCells();
                  const [first, ...more] = cells;
                  return (
                    <li key={r.id} className="flex flex-col gap-2 px-3 py-3" data-row-id={r.original.id}>
                      <div className="flex items-start gap-2">
                        <button type="button" className="min-w-0 flex-1 text-left font-medium text-slate-900" onClick={() => open(r.original)}>
                          {first ? flexRender(first.column.columnDef.cell, first.getContext()) : r.original.id}
                        </button>
                        <RowActions entity={entity} row={r.original} onOpen={open} />
                      </div>
                      <span className="self-start"><IdBadge id={r.original.id} /></span>
                      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
                        {more.slice(0, 4).map((c) => (
                          <div key={c.id} className="contents">
                            <dt className="text-xs uppercase tracking-wide text-slate-500">{flexRender(c.column.columnDef.header, c.getContext() as never)}</dt>
                            <dd className="min-w-0">{flexRender(c.column.columnDef.cell, c.getContext())}</dd>
                          </div>
                        ))}
                      </dl>
                    </li>
                  );
                })}
              </ul>
            )}
            {/* the desktop table: below the small breakpoint the rows are the cards above, and a state is drawn on its own */}
            <div className="overflow-x-auto max-sm:hidden">
              <table className="w-full text-left text-sm">
                <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                  {table.getHeaderGroups().map((hg) => (
                    <tr key={hg.id}>
                      <th scope="col" className="px-3 py-2">Id</th>
                      {hg.headers.map((h) => {
                        const sorted = h.column.getIsSorted();
                        const label = flexRender(h.column.columnDef.header, h.getContext());
                        return (
                          <th key={h.id} scope="col" aria-sort={sorted ? (sorted === 'desc' ? 'descending' : 'ascending') : h.column.getCanSort() ? 'none' : undefined} className="whitespace-nowrap px-3 py-2">
                            {h.column.getCanSort() ? (
                              <button type="button" className="inline-flex items-center gap-1 uppercase hover:text-slate-900" onClick={h.column.getToggleSortingHandler()}>
                                {label}
                                {sorted === 'asc' ? <ArrowUp aria-hidden className="h-3 w-3" /> : sorted === 'desc' ? <ArrowDown aria-hidden className="h-3 w-3" /> : <ArrowUpDown aria-hidden className="h-3 w-3 opacity-30" />}
                              </button>
                            ) : label}
                          </th>
                        );
                      })}
                      <th scope="col" className="sticky right-0 bg-slate-50 px-3 py-2 text-right shadow-[-6px_0_6px_-6px_rgba(15,23,42,0.2)]"><span className="max-sm:sr-only">Actions</span></th>
                    </tr>
                  ))}
                </thead>
                <tbody aria-busy={list.isFetching}>{body}</tbody>
              </table>
            </div>
            {status}
          </TitlesContext.Provider>
          <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-3 py-2 text-sm text-slate-600">
            {/* a failed load is not loading: the error and Retry are above */}
            <span aria-live="polite">{total !== undefined ? `${total} ${total === 1 ? 'item' : 'items'}` : list.isError && !list.isFetching ? 'Not loaded' : 'Loading…'}</span>
            <div className="flex flex-wrap items-center gap-2">
              <label className="flex items-center gap-1">
                Rows
                <select className="h-8 rounded border border-slate-300 bg-white px-1" value={state.size} onChange={(e) => setState({ size: Number(e.target.value), page: 0 })}>
                  {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
                </select>
              </label>
              <Button size="sm" variant="outline" aria-label="Previous page" disabled={state.page === 0} onClick={() => setState({ page: state.page - 1 })}><ChevronLeft className="h-4 w-4" /></Button>
              {total !== undefined && <span>Page {Math.min(state.page + 1, pages)} of {pages}</span>}
              <Button size="sm" variant="outline" aria-label="Next page" disabled={state.page + 1 >= pages} onClick={() => setState({ page: state.page + 1 })}><ChevronRight className="h-4 w-4" /></Button>
            </div>
          </footer>
        </>
      )}
      {adding && (
        <FormDialog
          entity={entity}
          prefill={prefill}
          open={adding}
          onClose={() => setAdding(false)}
          onSaved={(row, created) => {
            if (!created) return;
            setAdding(false);
            onCreated?.(row);
          }}
        />
      )}
      {editing && <FormDialog entity={entity} row={editing} open onClose={() => setEditing(undefined)} />}
    </section>
  );
}
