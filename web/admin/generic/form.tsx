import { useEffect, useMemo, useRef, useState } from 'react';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError } from '../../../runtime/client/index.js';
import { entityApi, type EntityInfo, type Row } from '../api.js';
import { nestedRelations, useModel } from '../model.js';
import { Button } from '../../ui/button.js';
import { editableFields, errorsOf, formSchema, isWritable } from './form-schema.js';
import { FieldTemplate, ObjectFieldTemplate, fields, widgets } from './widgets.js';
import { GenericTable } from './table.js';
import { useInvalidate } from './row.js';

type Status = 'idle' | 'pending' | 'success' | 'error';
export const STATUS_RESET_MS = 5000;

/**
 * admin-form: rjsf over the manifest's JSON Schema. Creates without a row, updates with one;
 * the server's field errors show next to their fields; an existing row's form nests the tables
 * of the relations that point at it.
 */
export function GenericForm({ entity, row, prefill, onSaved }: { entity: EntityInfo; row?: Row; prefill?: Record<string, unknown>; onSaved?: (row: Row) => void }) {
  const model = useModel();
  const mode = row ? 'update' : 'create';
  const { schema, uiSchema } = useMemo(() => formSchema(entity, mode), [entity, mode]);
  const initial = useMemo(() => {
    const data: Record<string, unknown> = { ...prefill };
    for (const f of editableFields(entity)) {
      const v = row ? row[f.name] : f.default;
      if (v !== null && v !== undefined && data[f.name] === undefined) data[f.name] = v;
    }
    return data;
  }, [entity, row, prefill]);
  const [formData, setFormData] = useState<Record<string, unknown>>(initial);
  const [current, setCurrent] = useState<Row | undefined>(row);
  const [status, setStatus] = useState<Status>('idle');
  const [extraErrors, setExtraErrors] = useState<Record<string, { __errors: string[] }>>({});
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const invalidate = useInvalidate(entity);
  useEffect(() => () => clearTimeout(timer.current), []);

  const settle = (s: Status) => {
    setStatus(s);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus('idle'), STATUS_RESET_MS);
  };
  const save = useMutation({
    mutationFn: (data: Record<string, unknown>) => {
      const api = entityApi(entity);
      const body = { ...data };
      // fields this account may not write are shown, never sent (the server would refuse them)
      for (const f of entity.fields) if (!isWritable(f)) delete body[f.name];
      if (!current) return api.create(body);
      // a value emptied in the form is cleared on the server
      for (const f of editableFields(entity)) if (isWritable(f) && body[f.name] === undefined && current[f.name] !== null && current[f.name] !== undefined) body[f.name] = null;
      return api.update(current.id, body);
    },
    onMutate: () => {
      setStatus('pending');
      setExtraErrors({});
    },
    onSuccess: async (saved) => {
      settle('success');
      toast.success(current ? 'Updated successfully' : 'Created successfully');
      setCurrent(saved);
      await invalidate();
      onSaved?.(saved);
    },
    onError: (e) => {
      settle('error');
      setExtraErrors(errorsOf(e instanceof ApiError ? e.cause : undefined));
      toast.error((e as Error).message);
    },
  });

  const label = save.isPending ? 'Loading...' : current ? 'Update' : 'Create';
  const nested = current ? nestedRelations(model, entity) : [];
  return (
    <div className="flex flex-col gap-6">
      <Form
        schema={schema as RJSFSchema}
        uiSchema={uiSchema}
        formData={formData}
        validator={validator}
        widgets={widgets}
        fields={fields}
        templates={{ FieldTemplate, ObjectFieldTemplate }}
        extraErrors={extraErrors as never}
        showErrorList={false}
        noHtml5Validate
        onChange={(e) => setFormData(e.formData as Record<string, unknown>)}
        onSubmit={(e) => save.mutate(e.formData as Record<string, unknown>)}
        idPrefix={`${entity.module}-${entity.name}-${current?.id ?? 'new'}`}
      >
        <div className="sticky bottom-0 mt-6 flex items-center gap-3 border-t border-slate-200 bg-white pt-4">
          <Button type="submit" variant={status === 'success' ? 'success' : status === 'error' ? 'destructive' : 'primary'} disabled={save.isPending} data-status={status}>
            {label}
          </Button>
          {status === 'success' && <span className="text-sm text-green-700" role="status">Saved</span>}
          {status === 'error' && <span className="text-sm text-red-700" role="status">Not saved</span>}
        </div>
      </Form>
      {nested.map(({ relation, field }) => (
        <GenericTable key={`${relation.id}:${field.name}`} entity={relation} title={relation.title} filter={{ column: field.name, value: current!.id }} prefill={{ [field.name]: current!.id }} />
      ))}
    </div>
  );
}
