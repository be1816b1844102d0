import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { FindParams } from '../../../runtime/client/index.js';
import { entityApi, type EntityInfo, type Row } from '../api.js';
import { useModel } from '../model.js';
import { Cell } from './cell.js';
import { adminLanguage, fieldTitle } from '../labels.js';

/** find: fetches rows of an entity and hands them to its children */
export function GenericFind({ entity, params, children }: { entity: EntityInfo; params?: FindParams<Row>; children: (rows: Row[], state: { loading: boolean; error?: Error }) => ReactNode }) {
  const q = useQuery({ queryKey: [entity.module, entity.route, 'find', params ?? {}], queryFn: () => entityApi(entity).find(params ?? {}) });
  return <>{children(q.data ?? [], { loading: q.isPending, error: (q.error as Error) ?? undefined })}</>;
}

/** default: a row as a list of its fields */
export function GenericDefault({ entity, row }: { entity: EntityInfo; row: Row }) {
  const model = useModel();
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
      {entity.fields.filter((f) => !f.secret && f.readable !== false).map((f) => (
        <div key={f.name} className="contents">
          <dt className="font-medium text-slate-600">{fieldTitle(f, model)}</dt>
          <dd><Cell field={f} value={row[f.name]} language={adminLanguage(model)} target={model.entities.find((e) => e.id === f.target)} /></dd>
        </div>
      ))}
    </dl>
  );
}
