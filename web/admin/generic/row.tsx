import { useCallback, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Copy, Pencil, Trash2 } from 'lucide-react';
import { entityApi, labelOf, type EntityInfo, type Row } from '../api.js';
import { useModel } from '../model.js';
import { adminLanguage, shortId } from '../labels.js';
import { useRouter } from '../router.js';
import { Badge } from '../../ui/badge.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { Skeleton } from '../../ui/skeleton.js';
import { lookup } from '../../registry.js';

/** invalidates every query of an entity (its lists, counts, rows) after a change, and the lists that show its titles */
export function useInvalidate(entity: EntityInfo) {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: [entity.module, entity.route] }), qc.invalidateQueries({ queryKey: ['titles'] }), qc.invalidateQueries({ queryKey: ['linked'] }), qc.invalidateQueries({ queryKey: ['dashboard'] })]);
}

/**
 * The edit or create dialog of a row: the entity's admin-form inside. Closing it (Escape, a click outside, the
 * close button) with unsaved changes asks first; focus goes back to what opened it.
 */
export function FormDialog({ entity, row, prefill, fixed, open, onClose, onSaved, title, loading, missing, failed }: {
  entity: EntityInfo;
  row?: Row;
  prefill?: Record<string, unknown>;
  fixed?: string[];
  open: boolean;
  onClose: () => void;
  onSaved?: (row: Row, created: boolean) => void;
  title?: string;
  loading?: boolean;
  missing?: boolean;
  /** the row could not be loaded for another reason than not existing (a server fault, the network): why, and a retry */
  failed?: { message: string; retry: () => void; retrying?: boolean };
}) {
  const model = useModel();
  const { confirm } = useRouter();
  const [dirty, setDirty] = useState(false);
  const Form = lookup(entity.module, entity.name, 'admin-form');
  const onDirtyChange = useCallback((d: boolean) => setDirty(d), []);
  const request = async () => {
    if (dirty && !(await confirm({ title: 'Discard unsaved changes?', description: 'The changes in this form have not been saved.', confirm: 'Discard', cancel: 'Keep editing', destructive: true }))) return;
    setDirty(false);
    onClose();
  };
  // a row asked for by its id that does not exist is not a new one: the heading says so
  const heading = missing ? `Not found: ${entity.title}` : failed ? entity.title : (title ?? (row ? `Edit: ${entity.title} · ${labelOf(row, adminLanguage(model))}` : loading ? entity.title : `Add new: ${entity.title}`));
  return (
    <Dialog open={open} onOpenChange={(o) => !o && void request()} title={heading} bare className="h-[80vh] max-h-[80vh] max-sm:h-[100dvh] max-sm:max-h-[100dvh] max-sm:rounded-none">
      {loading ? (
        <div className="p-6" aria-busy="true"><Skeleton className="mb-3 h-10 w-full" /><Skeleton className="h-40 w-full" /></div>
      ) : missing ? (
        <p role="alert" className="p-6 text-slate-700">Not found: this {entity.title.toLowerCase()} does not exist (it may have been deleted).</p>
      ) : failed ? (
        <div className="flex flex-col items-start gap-3 p-6">
          <p role="alert" className="text-slate-700">This {entity.title.toLowerCase()} could not be loaded: {failed.message}</p>
          <Button variant="outline" disabled={failed.retrying} onClick={failed.retry}>{failed.retrying ? 'Loading...' : 'Retry'}</Button>
        </div>
      ) : Form ? (
        <Form entity={entity} row={row} prefill={prefill} fixed={fixed} onSaved={onSaved} onDirtyChange={onDirtyChange} />
      ) : null}
    </Dialog>
  );
}

/** how many rows a delete takes with it: rows of every reference to this entity that cascades */
export function useLinkedCount(entity: EntityInfo, id: string, enabled: boolean) {
  const model = useModel();
  const refs = model.entities.flatMap((e) => e.fields.filter((f) => f.kind === 'reference' && f.target === entity.id && f.onDelete === 'cascade').map((f) => ({ e, f })));
  return useQuery({
    queryKey: ['linked', entity.id, id],
    enabled,
    queryFn: async () => {
      const counts = await Promise.all(refs.map(({ e, f }) => entityApi(e).count({ filters: { and: [{ column: f.name, method: 'eq', value: id }] } }).catch(() => 0)));
      return counts.reduce((a, b) => a + b, 0);
    },
  });
}

/** what removing a relation's link does, in the editor's words: the far row is unlinked from the record, and kept */
export interface Unlink {
  /** the record whose relation it is */
  from: string;
  /** the far row's title */
  far: string;
  /** the far entity's title ('Category') */
  farEntity: string;
}

/**
 * 'Delete?' naming the row and what goes with it; Cancel / Delete. A relation's link (`unlink`) is 'Remove?': the
 * far row is no longer linked to the record and is itself kept (the link table's row is what goes).
 */
export function DeleteDialog({ entity, row, open, onOpenChange, onDeleted, unlink }: { entity: EntityInfo; row: Row; open: boolean; onOpenChange: (open: boolean) => void; onDeleted?: () => void; unlink?: Unlink }) {
  const model = useModel();
  const invalidate = useInvalidate(entity);
  const linked = useLinkedCount(entity, row.id, open);
  const remove = useMutation({
    mutationFn: () => entityApi(entity).delete(row.id),
    onSuccess: async () => {
      toast.success(unlink ? 'Removed successfully' : 'Deleted successfully');
      onOpenChange(false);
      await invalidate();
      onDeleted?.();
    },
    onError: (e) => toast.error((e as Error).message.split(' | ')[0]),
  });
  const name = labelOf(row, adminLanguage(model));
  const n = linked.data;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={unlink ? 'Remove?' : 'Delete?'}
      role="alertdialog"
      description={
        unlink ? (
          <>
            <span className="block">
              <strong className="break-words font-semibold text-slate-900">“{unlink.far}”</strong> will no longer be linked to <strong className="break-words font-semibold text-slate-900">“{unlink.from}”</strong>. The {unlink.farEntity.toLowerCase()} itself is kept.
            </span>
            {!!n && <span className="mt-1 block" data-linked-count={n}>{`${n} ${n === 1 ? 'row' : 'rows'} linked to this link ${n === 1 ? 'goes' : 'go'} with it.`}</span>}
          </>
        ) : (
          <>
            <span className="block">
              {entity.title} <strong className="break-words font-semibold text-slate-900">“{name}”</strong> will be deleted. This cannot be undone.
            </span>
            <span className="mt-1 block" data-linked-count={n}>
              {n === undefined ? 'Counting linked rows…' : n === 0 ? 'No linked rows go with it.' : `${n} linked ${n === 1 ? 'row goes' : 'rows go'} with it.`}
            </span>
          </>
        )
      }
      className="max-w-md"
    >
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={() => onOpenChange(false)}>Cancel</Button>
        <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate()}>
          {remove.isPending ? (unlink ? 'Removing...' : 'Deleting...') : unlink ? 'Remove' : 'Delete'}
        </Button>
      </div>
    </Dialog>
  );
}

/** Edit and Delete of a row; Edit opens the row (in the address when the table has one), else a dialog here */
export function RowActions({ entity, row, onOpen }: { entity: EntityInfo; row: Row; onOpen?: (row: Row) => void }) {
  const model = useModel();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  /**
   * Once the row is gone (its Delete button with it), focus stays in the list rather than falling to the page: the
   * Delete button of the row now in its place, else of the row before, else the list's search box. Where the row was
   * is noted when Delete is pressed: by the time it is deleted, this component is gone.
   */
  const where = useRef<{ section: Element; at: number }>(undefined);
  const notePlace = (button: HTMLElement) => {
    const item = button.closest('tr, li, [data-row]');
    const section = button.closest('section');
    where.current = item && section ? { section, at: [...(item.parentElement?.children ?? [])].indexOf(item) } : undefined;
  };
  const keepFocus = () => {
    const place = where.current;
    if (!place) return;
    // after the list has drawn without the row
    setTimeout(() => {
      const rows = [...place.section.querySelectorAll<HTMLElement>('tbody tr, ul > li, [data-row]')];
      const next = rows[place.at] ?? rows[place.at - 1];
      const target = next?.querySelector<HTMLElement>('button[aria-label^="Delete"]') ?? place.section.querySelector<HTMLElement>('[role="searchbox"], input[type="search"]');
      target?.focus();
    }, 50);
  };
  // each row's buttons are named after the row ('Edit Hosting'), as a relation's 'Remove Hosting' is
  const label = labelOf(row, adminLanguage(model));
  const name = label && label !== row.id ? label : `${entity.title} ${shortId(row.id)}`;
  return (
    <div className="flex justify-end gap-1">
      <Button size="sm" variant="outline" aria-label={`Edit ${name}`} title="Edit" className="w-9 px-0 2xl:w-auto 2xl:px-3" onClick={(e) => { e.stopPropagation(); onOpen ? onOpen(row) : setEditing(true); }}>
        <Pencil aria-hidden className="h-4 w-4" /> <span className="max-2xl:sr-only">Edit</span>
      </Button>
      <Button size="sm" variant="ghost" aria-label={`Delete ${name}`} title="Delete" className="w-9 px-0 text-red-700 2xl:w-auto 2xl:px-3" onClick={(e) => { e.stopPropagation(); notePlace(e.currentTarget); setConfirming(true); }}>
        <Trash2 aria-hidden className="h-4 w-4" /> <span className="max-2xl:sr-only">Delete</span>
      </Button>
      {!onOpen && editing && <FormDialog entity={entity} row={row} open={editing} onClose={() => setEditing(false)} />}
      {confirming && <DeleteDialog entity={entity} row={row} open={confirming} onOpenChange={setConfirming} onDeleted={keepFocus} />}
    </div>
  );
}

/** the id badge: enough of the id to tell rows apart; a click copies all of it */
export function IdBadge({ id }: { id: string }) {
  const copy = async (e: MouseEvent) => {
    e.stopPropagation();
    try {
      await navigator.clipboard.writeText(id);
      toast.success('Text copied to clipboard');
    } catch {
      toast.error('Failed to copy text to clipboard');
    }
  };
  return (
    <button type="button" onClick={copy} title={`${id} — click to copy`} aria-label={`Id ${id}, copy`} className="group rounded-full focus-visible:outline-2 focus-visible:outline-blue-600">
      <Badge className="whitespace-nowrap group-hover:bg-slate-200">{shortId(id)}<Copy aria-hidden className="ml-1 hidden h-3 w-3 group-hover:inline" /></Badge>
    </button>
  );
}

/** admin-table-row: the id badge, the cells, and Edit / Delete kept in view; a click on the row opens it */
export function GenericRow({ entity, row, cells, onOpen }: { entity: EntityInfo; row: Row; cells: { id: string; node: ReactNode }[]; onOpen?: (row: Row) => void }) {
  return (
    <tr
      className="group/row cursor-pointer border-t border-slate-100 hover:bg-slate-50"
      data-row-id={row.id}
      onClick={(e) => {
        // a click on a link, a button or a selection of text is not a click on the row
        if ((e.target as Element).closest('a, button, input, select, textarea, label') || getSelection()?.toString()) return;
        onOpen?.(row);
      }}
    >
      <td className="px-3 py-2 align-top"><IdBadge id={row.id} /></td>
      {/* a long word (a path, an email) may wrap anywhere: the table then fits more often, and less of it is under the actions */}
      {cells.map((c) => <td key={c.id} className="min-w-[7rem] max-w-xs px-3 py-2 align-top [overflow-wrap:anywhere]">{c.node}</td>)}
      <td className="sticky right-0 bg-white px-2 py-2 align-top shadow-[-6px_0_6px_-6px_rgba(15,23,42,0.2)] group-hover/row:bg-slate-50">
        <RowActions entity={entity} row={row} onOpen={onOpen} />
      </td>
    </tr>
  );
}
