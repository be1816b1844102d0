import { useEffect, useId, useMemo, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ChevronDown, ChevronRight, GripVertical, Pencil, Plus, Search, X } from 'lucide-react';
import { entityApi, labelOf, type EntityInfo, type FieldInfo, type Row } from '../api.js';
import { useModel } from '../model.js';
import { adminLanguage, enumLabel, fieldTitle, relationsOf, relationTitle, shortId, type RelationEnds } from '../labels.js';
import { entityHref, Link } from '../router.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { Input } from '../../ui/input.js';
import { Skeleton } from '../../ui/skeleton.js';
import { cn } from '../../ui/cn.js';
import { jsonSummary } from './cell.js';
import { DeleteDialog, FormDialog, useInvalidate } from './row.js';
import { useRowSearch } from './select-input.js';
import { GenericTable } from './table.js';

/** a relation row's own fields worth showing beside the far row (sku, quantity; the variant when there is a choice) */
export function linkFields(ends: RelationEnds): FieldInfo[] {
  return ends.relation.fields.filter(
    (f) => f !== ends.near && f !== ends.far && !f.secret && f.readable !== false && ((!f.common && !/className$/i.test(f.name)) || (f.name === 'variant' && (f.values?.length ?? 0) > 1)),
  );
}

/** whether a link needs more than its two ends: a required own field without a default (a store's sku) */
const needsForm = (ends: RelationEnds) => linkFields(ends).some((f) => f.required && f.default === undefined && !f.generate);

/** the new order of a list after moving one item: the rows whose orderIndex changes, with their new one */
export function reorder(rows: { id: string; orderIndex?: unknown }[], from: number, to: number): { order: string[]; changes: { id: string; orderIndex: number }[] } {
  const moved = arrayMove(rows, from, to);
  return {
    order: moved.map((r) => r.id),
    changes: moved.flatMap((r, i) => (Number(r.orderIndex ?? 0) === i ? [] : [{ id: r.id, orderIndex: i }])),
  };
}

const valueText = (f: FieldInfo, v: unknown, language: string) => {
  if (v === null || v === undefined || v === '') return undefined;
  if (f.kind === 'enum') return enumLabel(String(v));
  if (f.kind === 'boolean') return v ? 'Yes' : 'No';
  if (f.kind === 'localized' && typeof v === 'object') return (v as Record<string, string>)[language] ?? Object.values(v as object)[0];
  if (f.kind === 'json') return jsonSummary(v);
  return String(v);
};

function LinkRow({ ends, link, far, farTitle, language, sortable, onEdit, onRemove }: {
  ends: RelationEnds;
  link: Row;
  far: EntityInfo;
  farTitle: string | undefined;
  language: string;
  /** undefined: the relation has no order (no handle column); false: one row (nothing to move) */
  sortable: boolean | undefined;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: link.id, disabled: !sortable });
  const farId = String(link[ends.far!.name] ?? '');
  const title = farTitle ?? shortId(farId);
  return (
    <tr
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cn('border-t border-slate-100 bg-white', isDragging && 'relative z-10 shadow-md')}
      data-link-id={link.id}
    >
      {sortable !== undefined && (
        <td className="w-8 py-1.5 pl-2 align-middle">
          {sortable && (
            <button
              type="button"
              ref={setActivatorNodeRef}
              {...attributes}
              {...listeners}
              aria-label={`Reorder ${title}`}
              className="cursor-grab touch-none rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <GripVertical aria-hidden className="h-4 w-4" />
            </button>
          )}
        </td>
      )}
      <td className="max-w-0 px-2 py-1.5 align-middle">
        <Link href={entityHref(far, farId)} className="block truncate font-medium text-blue-700 hover:underline" title={`Open ${far.title.toLowerCase()} ${title}`}>
          {title}
        </Link>
      </td>
      {linkFields(ends).map((f) => (
        <td key={f.name} className="px-2 py-1.5 align-middle text-slate-700">
          {valueText(f, link[f.name], language) ?? <span className="text-slate-400">—</span>}
        </td>
      ))}
      <td className="whitespace-nowrap py-1.5 pr-2 text-right align-middle">
        <Button size="icon" variant="ghost" aria-label={`Edit link to ${title}`} title="Edit link" onClick={onEdit}><Pencil aria-hidden className="h-4 w-4" /></Button>
        <Button size="icon" variant="ghost" aria-label={`Remove ${title}`} title="Remove" className="text-red-700" onClick={onRemove}><X aria-hidden className="h-4 w-4" /></Button>
      </td>
    </tr>
  );
}

/** picks rows of the far entity to link: search, 20 more at a time, several at once; or a new one made here */
function PickDialog({ ends, heading, linked, open, onOpenChange, onPick }: {
  ends: RelationEnds;
  heading: string;
  linked: Set<string>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPick: (ids: string[]) => Promise<unknown>;
}) {
  const model = useModel();
  const language = adminLanguage(model);
  const far = ends.farEntity!;
  const [term, setTerm] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState(false);
  const { rows, total, pending, more } = useRowSearch(far, term, open);
  const listId = useId();
  const add = async (ids: string[]) => {
    setBusy(true);
    try {
      await onPick(ids);
      setChosen([]);
      setTerm('');
      onOpenChange(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Add ${heading.toLowerCase()}`} description={`Choose ${heading.toLowerCase()} to link, or create one.`} className="max-h-[85dvh] max-w-lg">
      <div className="flex flex-col gap-3">
        <label className="relative">
          <span className="sr-only">Search {heading}</span>
          <Search aria-hidden className="pointer-events-none absolute left-2.5 top-3 h-4 w-4 text-slate-400" />
          <Input type="search" data-autofocus="" placeholder={`Search ${heading.toLowerCase()}`} value={term} className="pl-8" onChange={(e) => setTerm(e.target.value)} />
        </label>
        <ul id={listId} aria-label={heading} className="max-h-72 overflow-y-auto rounded-md border border-slate-200">
          {pending && <li className="p-3"><Skeleton className="h-6 w-full" /></li>}
          {!pending && !rows.length && <li className="p-3 text-sm text-slate-500">No found items</li>}
          {rows.map((r) => {
            const already = linked.has(r.id);
            const checked = already || chosen.includes(r.id);
            return (
              <li key={r.id} className="border-t border-slate-100 first:border-t-0">
                <label className={cn('flex cursor-pointer items-center gap-2 px-3 py-2 text-sm hover:bg-slate-50', already && 'cursor-default text-slate-400')}>
                  <input
                    type="checkbox"
                    className="h-4 w-4"
                    checked={checked}
                    disabled={already}
                    onChange={(e) => setChosen(e.target.checked ? [...chosen, r.id] : chosen.filter((x) => x !== r.id))}
                  />
                  <span className="min-w-0 flex-1 truncate">{labelOf(r, language)}</span>
                  {already ? <span className="text-xs">added</span> : <span className="font-mono text-xs text-slate-400">{shortId(r.id)}</span>}
                </label>
              </li>
            );
          })}
        </ul>
        {total !== undefined && (
          <div className="flex items-center justify-between text-xs text-slate-500">
            <span aria-live="polite">{rows.length < total ? `${rows.length} of ${total} shown` : `${total} ${total === 1 ? 'item' : 'items'}`}</span>
            {rows.length < total && <Button size="sm" variant="ghost" onClick={more}>Show more</Button>}
          </div>
        )}
        <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-3">
          <Button variant="outline" onClick={() => setCreating(true)}><Plus className="h-4 w-4" /> Create new {far.title.toLowerCase()}</Button>
          <Button variant="primary" disabled={!chosen.length || busy} onClick={() => void add(chosen)}>
            {busy ? 'Adding...' : chosen.length ? `Add ${chosen.length}` : 'Add'}
          </Button>
        </div>
      </div>
      {creating && (
        <FormDialog
          entity={far}
          open={creating}
          onClose={() => setCreating(false)}
          onSaved={(row, created) => {
            if (!created) return;
            setCreating(false);
            void add([...chosen, row.id]);
          }}
        />
      )}
    </Dialog>
  );
}

/**
 * One relation of a row, titled by the entity at its far end: the linked rows by title (links to open them),
 * each link's own fields, drag (or keyboard) to reorder, add by picking or creating, edit and remove a link.
 * Folded while it has no rows.
 */
export function RelationSection({ ends, owner, row }: { ends: RelationEnds; owner: EntityInfo; row: Row }) {
  const model = useModel();
  const language = adminLanguage(model);
  const { relation, near, far, farEntity } = ends;
  const heading = relationTitle(ends, owner);
  const api = useMemo(() => entityApi(relation), [relation]);
  const invalidate = useInvalidate(relation);
  const sortable = relation.fields.some((f) => f.name === 'orderIndex');
  const links = useQuery({
    queryKey: [relation.module, relation.route, 'links', near.name, row.id],
    queryFn: () =>
      api.page({
        filters: { and: [{ column: near.name, method: 'eq', value: row.id }] },
        orderBy: { and: [...(sortable ? [{ column: 'orderIndex', method: 'asc' as const }] : []), { column: 'createdAt', method: 'asc' }] },
        limit: 1000,
      }),
  });
  const [order, setOrder] = useState<string[] | undefined>();
  useEffect(() => setOrder(undefined), [links.dataUpdatedAt]);
  const byId = new Map((links.data?.rows ?? []).map((l) => [l.id, l]));
  const rows = order ? order.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])) : (links.data?.rows ?? []);
  const farIds = [...new Set(rows.map((l) => String(l[far?.name ?? ''] ?? '')).filter(Boolean))].sort();
  const titles = useQuery({
    queryKey: ['titles', farEntity?.id, farIds],
    queryFn: () => entityApi(farEntity!).byIds(farIds),
    enabled: !!farEntity && farIds.length > 0,
  });
  const titleOf = new Map((titles.data ?? []).map((r) => [r.id, labelOf(r, language)]));
  const count = links.data?.total;
  const [open, setOpen] = useState<boolean | undefined>(undefined);
  const expanded = open ?? (count !== undefined && count > 0);
  const [picking, setPicking] = useState(false);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Row | undefined>();
  const [removing, setRemoving] = useState<Row | undefined>();
  const sectionId = useId();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const move = useMutation({
    mutationFn: (changes: { id: string; orderIndex: number }[]) => api.bulkUpdate(changes),
    onSuccess: async () => {
      toast.success('Updated successfully');
      await invalidate();
    },
    onError: (e) => {
      setOrder(undefined);
      toast.error(`The new order was not saved: ${(e as Error).message.split(' | ')[0]}`);
    },
  });
  const nameOf = (id: string | number) => {
    const l = byId.get(String(id));
    return l ? (titleOf.get(String(l[far?.name ?? ''])) ?? shortId(String(l[far?.name ?? '']))) : String(id);
  };
  const positionOf = (id: string | number) => rows.findIndex((r) => r.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, position ${positionOf(active.id)} of ${rows.length}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} is over position ${positionOf(over.id)} of ${rows.length}.` : `${nameOf(active.id)} is no longer over the list.`),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} dropped at position ${positionOf(over.id)} of ${rows.length}.` : `${nameOf(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = rows.findIndex((r) => r.id === active.id);
    const to = rows.findIndex((r) => r.id === over.id);
    const { order: next, changes } = reorder(rows, from, to);
    setOrder(next);
    if (changes.length) move.mutate(changes);
  };
  const link = async (ids: string[]) => {
    const start = rows.reduce((m, r) => Math.max(m, Number(r.orderIndex ?? 0) + 1), 0);
    await api.bulkCreate(ids.map((id, i) => ({ [near.name]: row.id, [far!.name]: id, ...(sortable && { orderIndex: start + i }) })));
    toast.success(ids.length === 1 ? 'Created successfully' : `${ids.length} added`);
    setOpen(true);
    await invalidate();
  };

  if (!far || !farEntity) {
    // a relation with one reference (its far end is polymorphic): its table, filtered by this row
    return <GenericTable entity={relation} title={heading} filter={{ column: near.name, value: row.id }} prefill={{ [near.name]: row.id }} />;
  }

  return (
    <section aria-labelledby={`${sectionId}-h`} className="rounded-lg border border-slate-200 bg-white" data-entity={relation.id} data-relation={heading}>
      <header className="flex items-center gap-2 px-2 py-1.5">
        <button type="button" aria-expanded={expanded} aria-controls={`${sectionId}-list`} onClick={() => setOpen(!expanded)} className="flex min-w-0 flex-1 items-center gap-1 rounded px-1 py-1 text-left hover:bg-slate-50">
          {expanded ? <ChevronDown aria-hidden className="h-4 w-4 shrink-0" /> : <ChevronRight aria-hidden className="h-4 w-4 shrink-0" />}
          <h3 id={`${sectionId}-h`} className="truncate text-sm font-semibold">{heading}</h3>
          <span className="text-xs text-slate-500">{count === undefined ? '' : count}</span>
        </button>
        <Button size="sm" variant="outline" aria-label={`Add ${heading}`} onClick={() => (needsForm(ends) ? setAdding(true) : setPicking(true))}>
          <Plus className="h-4 w-4" /> Add
        </Button>
      </header>
      {expanded && (
        <div id={`${sectionId}-list`} className="border-t border-slate-200">
          {links.isPending ? (
            <div className="p-2"><Skeleton className="h-6 w-full" /></div>
          ) : !rows.length ? (
            <p className="px-3 py-3 text-sm text-slate-500">No found items</p>
          ) : (
            <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ screenReaderInstructions: { draggable: 'To reorder, press Space or Enter, move with the arrow keys, and press Space or Enter again to drop. Escape cancels.' }, announcements }}>
              <SortableContext items={rows.map((r) => r.id)} strategy={verticalListSortingStrategy}>
                <table className="w-full table-fixed text-left text-sm" aria-label={heading}>
                  <thead className="text-xs uppercase tracking-wide text-slate-500">
                    <tr>
                      {sortable && <th scope="col" className="w-8 pl-2"><span className="sr-only">Order</span></th>}
                      <th scope="col" className="px-2 py-1">{farEntity.title}</th>
                      {linkFields(ends).map((f) => <th key={f.name} scope="col" className="px-2 py-1">{fieldTitle(f, model)}</th>)}
                      <th scope="col" className="w-24 pr-2 text-right"><span className="sr-only">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((l) => (
                      <LinkRow
                        key={l.id}
                        ends={ends}
                        link={l}
                        far={farEntity}
                        farTitle={titleOf.get(String(l[far.name]))}
                        language={language}
                        sortable={sortable ? rows.length > 1 : undefined}
                        onEdit={() => setEditing(l)}
                        onRemove={() => setRemoving(l)}
                      />
                    ))}
                  </tbody>
                </table>
              </SortableContext>
            </DndContext>
          )}
        </div>
      )}
      {picking && <PickDialog ends={ends} heading={heading} linked={new Set(farIds)} open={picking} onOpenChange={setPicking} onPick={link} />}
      {adding && (
        <FormDialog
          entity={relation}
          title={`Add: ${heading}`}
          prefill={{ [near.name]: row.id, ...(sortable && { orderIndex: rows.reduce((m, r) => Math.max(m, Number(r.orderIndex ?? 0) + 1), 0) }) }}
          fixed={[near.name]}
          open={adding}
          onClose={() => setAdding(false)}
          onSaved={(_, created) => {
            if (!created) return;
            setAdding(false);
            setOpen(true);
          }}
        />
      )}
      {editing && <FormDialog entity={relation} row={editing} title={`Edit: ${heading} · ${titleOf.get(String(editing[far.name])) ?? ''}`} fixed={[near.name]} open onClose={() => setEditing(undefined)} />}
      {removing && (
        <DeleteDialog
          entity={relation}
          row={{ ...removing, adminTitle: `${labelOf(row, language)} → ${titleOf.get(String(removing[far.name])) ?? shortId(String(removing[far.name]))}` }}
          unlink={{ from: labelOf(row, language) || shortId(row.id), far: titleOf.get(String(removing[far.name])) ?? shortId(String(removing[far.name])), farEntity: farEntity?.title ?? 'Row' }}
          open
          onOpenChange={(o) => !o && setRemoving(undefined)}
        />
      )}
    </section>
  );
}

/** every relation of a row, each titled by its far entity */
export function RelationSections({ entity, row }: { entity: EntityInfo; row: Row }) {
  const model = useModel();
  const ends = useMemo(() => relationsOf(model, entity), [model, entity]);
  if (!ends.length) return null;
  return (
    <div className="mt-8 flex flex-col gap-2" aria-label="Relations" role="group">
      <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Relations</h3>
      {ends.map((e) => <RelationSection key={`${e.relation.id}:${e.near.name}`} ends={e} owner={entity} row={row} />)}
    </div>
  );
}
