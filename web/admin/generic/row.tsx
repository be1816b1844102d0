import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Pencil, Trash2 } from 'lucide-react';
import { entityApi, type EntityInfo, type Row } from '../api.js';
import { Badge } from '../../ui/badge.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { lookup } from '../../registry.js';

/** invalidates every query of an entity (its lists, counts, rows) after a change */
export function useInvalidate(entity: EntityInfo) {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: [entity.module, entity.route] });
}

export function RowActions({ entity, row }: { entity: EntityInfo; row: Row }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const invalidate = useInvalidate(entity);
  const remove = useMutation({
    mutationFn: () => entityApi(entity).delete(row.id),
    onSuccess: async () => {
      toast.success('Deleted successfully');
      setConfirming(false);
      await invalidate();
    },
    onError: (e) => toast.error((e as Error).message),
  });
  const Form = lookup(entity.module, entity.name, 'admin-form');
  return (
    <div className="flex justify-end gap-1">
      <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
        <Pencil className="h-4 w-4" /> Edit
      </Button>
      <Button size="sm" variant="ghost" className="text-red-700" onClick={() => setConfirming(true)}>
        <Trash2 className="h-4 w-4" /> Delete
      </Button>
      {Form && (
        <Dialog open={editing} onOpenChange={setEditing} title={`Edit: ${entity.title}`} className="h-[80vh] max-h-[80vh]">
          <Form entity={entity} row={row} onSaved={() => undefined} />
        </Dialog>
      )}
      <Dialog open={confirming} onOpenChange={setConfirming} title="Delete?" description="This cannot be undone." className="max-w-md">
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => setConfirming(false)}>Cancel</Button>
          <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate()}>
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

/** admin-table-row: the id badge, the cells, and Edit / Delete */
export function GenericRow({ entity, row, cells }: { entity: EntityInfo; row: Row; cells: { id: string; node: ReactNode }[] }) {
  return (
    <tr className="border-t border-slate-100 hover:bg-slate-50" data-row-id={row.id}>
      <td className="px-3 py-2 align-top"><Badge title={row.id}>{row.id.slice(0, 8)}</Badge></td>
      {cells.map((c) => <td key={c.id} className="max-w-xs px-3 py-2 align-top">{c.node}</td>)}
      <td className="px-3 py-2 align-top"><RowActions entity={entity} row={row} /></td>
    </tr>
  );
}
