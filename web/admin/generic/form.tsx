import type { ReactNode } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { ErrorTransformer, RJSFSchema, CustomValidator } from '@rjsf/utils';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError } from '../../../runtime/client/index.js';
import { entityApi, type EntityInfo, type Row } from '../api.js';
import { useModel } from '../model.js';
import { describePattern, errorInWords, fieldTitle, slugify } from '../labels.js';
import { useLeaveGuard } from '../router.js';
import { Button } from '../../ui/button.js';
import { DATE_TIME_ERROR } from '../../ui/date-time-picker.js';
import { causeInWords, editableFields, errorsOf, formSchema, isWritable, prefillsDefault, slugField } from './form-schema.js';
import { FieldTemplate, ObjectFieldTemplate, fields, widgets, type FormContext } from './widgets.js';
import { useInvalidate } from './row.js';
import { RelationSections } from './relations.js';

type Status = 'idle' | 'pending' | 'success' | 'error';
export const STATUS_RESET_MS = 5000;
/** the one error toast of the forms: a new one replaces it, a successful save takes it away */
const ERROR_TOAST = 'admin-form-error';

type Data = Record<string, unknown>;

/** what the form starts with: the row's values, or the prefill and the defaults an editor sees as chosen */
function initialData(entity: EntityInfo, row: Row | undefined, prefill: Data | undefined): Data {
  const data: Data = { ...prefill };
  for (const f of editableFields(entity)) {
    if (data[f.name] !== undefined) continue;
    const v = row ? row[f.name] : prefillsDefault(f) ? f.default : undefined;
    if (v !== null && v !== undefined) data[f.name] = v;
  }
  return data;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** the data without what the form does not send: empty strings and empty language maps count as nothing */
const normalized = (d: Data) => JSON.stringify(Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined && v !== '' && !(v && typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length)).sort(([a], [b]) => a.localeCompare(b))));

/** the text a new row's title and slug follow: its title in the default language, when it has one */
function titleText(entity: EntityInfo, data: Data, language: string): string | undefined {
  const f = entity.fields.find((x) => x.name === 'title');
  const v = data.title;
  if (!f) return undefined;
  if (f.kind === 'localized' && v && typeof v === 'object') return (v as Record<string, string>)[language];
  return typeof v === 'string' ? v : undefined;
}

/** the short message of a failed save: the server's own message without the status it repeats */
const shortMessage = (e: unknown) => (e instanceof Error ? e.message.split(' | ')[0]! : 'The change was not saved');

/**
 * admin-form: rjsf over the manifest's JSON Schema. Creates without a row, updates with one. Messages say in
 * words what a field needs, beside it; the first field in error takes focus. A new row's admin title and slug
 * follow its title as the editor types, until edited. An existing row's form nests its relations.
 */
export function GenericForm({ entity, row, prefill, fixed, onSaved, onDirtyChange, after }: {
  entity: EntityInfo;
  /** more of the record below the fields and relations, inside the form's scrolling body (a module's own view) */
  after?: ReactNode;
  row?: Row;
  prefill?: Data;
  /** fields set by where the form is (a nested table's key): kept, not shown */
  fixed?: string[];
  onSaved?: (row: Row, created: boolean) => void;
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const model = useModel();
  const [current, setCurrent] = useState<Row | undefined>(row);
  const mode = current ? 'update' : 'create';
  const fixedKeys = useMemo(() => fixed ?? Object.keys(prefill ?? {}).filter((k) => entity.fields.find((f) => f.name === k)?.kind === 'reference'), [fixed, prefill, entity]);
  const { schema, uiSchema } = useMemo(() => formSchema(entity, mode, model, fixedKeys), [entity, mode, model, fixedKeys]);
  const initial = useMemo(() => initialData(entity, row, prefill), [entity, row, prefill]);
  const [formData, setFormData] = useState<Data>(initial);
  const [baseline, setBaseline] = useState(() => normalized(initial));
  const [status, setStatus] = useState<Status>('idle');
  const [extraErrors, setExtraErrors] = useState<Record<string, { __errors: string[] }>>({});
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** this form put up the error toast (and no save has taken it down since) */
  const failed = useRef(false);
  const invalid = useRef(new Set<string>());
  const touched = useRef(new Set<string>(current ? ['adminTitle', 'slug'] : []));
  const invalidate = useInvalidate(entity);
  const formId = `${entity.module}-${entity.name}-${current?.id ?? 'new'}`.replace(/[^A-Za-z0-9_-]/g, '-');
  // the form's error toast is about this form: when it goes (closed, discarded), so does the toast (its Retry or
  // Save would act on a form no longer there)
  useEffect(() => () => {
    clearTimeout(timer.current);
    if (failed.current) toast.dismiss(ERROR_TOAST);
  }, []);

  const dirty = normalized(formData) !== baseline;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useLeaveGuard(() => dirtyRef.current);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  // the row changed elsewhere while the form is open (live updates, another editor): a form without changes shows
  // it; one with changes keeps them, says so, and its save sends only what this editor changed
  const [changedElsewhere, setChangedElsewhere] = useState(false);
  const rowVersion = row ? `${row.id}@${String(row.updatedAt ?? '')}` : undefined;
  const shownVersion = useRef(rowVersion);
  useEffect(() => {
    if (!row || !rowVersion || rowVersion === shownVersion.current) return;
    if (current && row.id === current.id && String(row.updatedAt ?? '') <= String(current.updatedAt ?? '')) return;
    shownVersion.current = rowVersion;
    if (dirtyRef.current) return setChangedElsewhere(true);
    setCurrent(row);
    const data = initialData(entity, row, undefined);
    setFormData(data);
    setBaseline(normalized(data));
  }, [row, rowVersion, current, entity]);

  const slug = slugField(entity);
  const titleField = entity.fields.find((f) => f.generate === 'words' && isWritable(f));

  /** the editor's change, with the admin title and slug following the title while untouched (new rows) */
  const change = (next: Data) => {
    for (const name of [titleField?.name, slug?.name]) {
      // edited by hand: it no longer follows (even emptied: the server then makes one)
      if (name && !same(next[name], formData[name])) touched.current.add(name);
    }
    if (!current) {
      const title = titleText(entity, next, model.defaultLanguage);
      if (titleField && !touched.current.has(titleField.name) && titleField.name !== 'title' && title !== undefined) next = { ...next, [titleField.name]: title || undefined };
      const source = (titleField && (next[titleField.name] as string | undefined)) || title;
      if (slug && !touched.current.has(slug.name)) next = { ...next, [slug.name]: source ? slugify(source) || undefined : undefined };
    }
    // the server's word about a field is about the value it was sent: once that value changes, it goes
    const stale = Object.keys(extraErrors).filter((name) => !same(next[name], formData[name]));
    if (stale.length) setExtraErrors(Object.fromEntries(Object.entries(extraErrors).filter(([name]) => !stale.includes(name))));
    setFormData(next);
  };

  const context: FormContext = {
    formData,
    setInvalid: (field, bad) => (bad ? invalid.current.add(field) : invalid.current.delete(field)),
    onUploaded: (field, file, answer) => {
      const next: Data = { ...formData, [field]: answer.url ?? answer.file ?? formData[field] };
      for (const f of editableFields(entity)) {
        if (f.name === field || !isWritable(f) || answer[f.name] === undefined || answer[f.name] === null) continue;
        if (next[f.name] === undefined || next[f.name] === '') next[f.name] = answer[f.name];
      }
      // the file's name is the default title
      if (titleField && !next[titleField.name]) {
        const name = file.name.replace(/\.[^.]+$/, '').replace(/[_-]+/g, ' ').trim();
        if (name) next[titleField.name] = name;
      }
      change(next);
    },
  };

  const transformErrors: ErrorTransformer = (errors) =>
    errors.map((e) => {
      const top = String(e.property ?? '').replace(/^\./, '').split(/[.[]/)[0] ?? '';
      const field = entity.fields.find((f) => f.name === top);
      let message = errorInWords(e as never);
      if (e.name === 'pattern' && !describePattern(String(e.params?.pattern)) && field?.description) message = `Not in the expected form: ${field.description}`;
      return { ...e, message, stack: `${field?.title ?? top}: ${message}` };
    });
  const customValidate: CustomValidator = (_data, errors) => {
    for (const name of invalid.current) (errors as unknown as Record<string, { addError: (m: string) => void }>)[name]?.addError(DATE_TIME_ERROR);
    return errors;
  };

  /** moves focus to a field and brings it into view */
  const focusField = (name: string) => {
    const el = document.getElementById(`${formId}_${name}`) ?? document.querySelector<HTMLElement>(`[id^="${formId}_${name}"]`);
    if (!el) return;
    el.scrollIntoView?.({ block: 'center' });
    (el.matches('input, select, textarea, button, [contenteditable]') ? el : el.querySelector<HTMLElement>('input, select, textarea, button, [contenteditable]'))?.focus({ preventScroll: true });
  };

  const settle = (s: Status) => {
    setStatus(s);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus('idle'), STATUS_RESET_MS);
  };
  const save = useMutation({
    mutationFn: (data: Data) => {
      const api = entityApi(entity);
      const body: Data = {};
      for (const f of editableFields(entity)) {
        // fields this account may not write are shown, never sent (the server would refuse them)
        if (!isWritable(f)) continue;
        const v = data[f.name];
        if (!current) {
          if (v !== undefined) body[f.name] = v;
          continue;
        }
        // an update sends what the editor changed, and only that: a field someone else changed since the form
        // opened keeps their value (sending every field put the form's old values back over theirs)
        if (same(v, current[f.name])) continue;
        // a value emptied in the form is cleared on the server
        body[f.name] = v === undefined ? null : v;
      }
      if (current && !Object.keys(body).length) return Promise.resolve(current);
      return current ? api.update(current.id, body) : api.create(body);
    },
    onMutate: () => {
      setStatus('pending');
      setExtraErrors({});
    },
    onSuccess: async (saved) => {
      const created = !current;
      settle('success');
      setChangedElsewhere(false);
      shownVersion.current = `${saved.id}@${String(saved.updatedAt ?? '')}`;
      toast.dismiss(ERROR_TOAST);
      failed.current = false;
      toast.success(created ? 'Created successfully' : 'Updated successfully');
      setCurrent(saved);
      const data = initialData(entity, saved, undefined);
      setFormData(data);
      setBaseline(normalized(data));
      touched.current = new Set(['adminTitle', 'slug']);
      await invalidate();
      onSaved?.(saved, created);
    },
    onError: (e, data) => {
      settle('error');
      const known = (name: string) => editableFields(entity).some((f) => f.name === name && !fixedKeys.includes(f.name));
      const causes = e instanceof ApiError ? e.cause : undefined;
      const beside = errorsOf(causes, known);
      setExtraErrors(beside);
      const first = (uiSchema['ui:order'] as string[]).find((n) => beside[n]);
      if (first) {
        // the message is beside the field: one place, no toast
        toast.dismiss(ERROR_TOAST);
        setTimeout(() => focusField(first));
        return;
      }
      // the session ended (the admin asks to sign in again over the page): the changes stay, to be saved then
      if (e instanceof ApiError && e.status === 401) {
        failed.current = true;
        toast.error('Your session ended: sign in again, then save. Your changes are kept.', { id: ERROR_TOAST, duration: Infinity, closeButton: true, action: { label: 'Save', onClick: () => save.mutate(data) } });
        return;
      }
      const serverFault = !(e instanceof ApiError) || e.isFault;
      // a real failure (the server's fault, the network, a bug) is logged; a refused input is not
      if (serverFault) console.error('Saving failed', e);
      // a refusal about one field the form does not show beside it names the field by its label, as beside it
      const only = causes?.length === 1 ? causes[0] : undefined;
      const onlyField = only?.field ? entity.fields.find((f) => f.name === only.field) : undefined;
      const refusal = only && onlyField ? causeInWords(only.message, onlyField.name, fieldTitle(onlyField, model)) : shortMessage(e);
      failed.current = true;
      toast.error(serverFault ? 'The change could not be saved: the server had a problem. Try again.' : refusal, {
        id: ERROR_TOAST,
        duration: Infinity,
        closeButton: true,
        ...(serverFault && { action: { label: 'Retry', onClick: () => save.mutate(data) } }),
      });
    },
  });

  const label = save.isPending ? 'Loading...' : current ? 'Update' : 'Create';
  return (
    <div className="flex min-h-0 flex-1 flex-col" data-dirty={dirty || undefined}>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6" data-form-body="">
        <Form
          id={formId}
          schema={schema as RJSFSchema}
          uiSchema={uiSchema}
          formData={formData}
          formContext={context}
          validator={validator}
          widgets={widgets}
          fields={fields}
          templates={{ FieldTemplate, ObjectFieldTemplate }}
          extraErrors={extraErrors as never}
          transformErrors={transformErrors}
          customValidate={customValidate}
          focusOnFirstError={(e) => focusField(String(e.property ?? '').replace(/^\./, '').split(/[.[]/)[0] ?? '')}
          // a refused input is said beside its field: not a failure to log (rjsf logs console.error without this)
          onError={() => undefined}
          showErrorList={false}
          noHtml5Validate
          onChange={(e) => change({ ...(e.formData as Data) })}
          onSubmit={(e) => save.mutate(e.formData as Data)}
          idPrefix={formId}
        >
          <span />
        </Form>
        {current && <RelationSections entity={entity} row={current} />}
        {after && <div className="mt-6">{after}</div>}
      </div>
      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white px-4 py-3 sm:px-6">
        <Button type="submit" form={formId} variant={status === 'success' ? 'success' : status === 'error' ? 'destructive' : 'primary'} disabled={save.isPending} data-status={status}>
          {label}
        </Button>
        <span role="status" className="text-sm">
          {status === 'success' && <span className="text-green-700">Saved</span>}
          {status === 'error' && <span className="text-red-700">Not saved{Object.keys(extraErrors).length ? ': see the marked fields' : ''}</span>}
          {status === 'idle' && dirty && <span className="text-slate-500">Unsaved changes</span>}
        </span>
        {changedElsewhere && (
          <span role="alert" className="text-sm text-amber-800" data-changed-elsewhere="">
            Someone else changed this {entity.title.toLowerCase()} since you opened it: saving sends only your changes.
          </span>
        )}
      </div>
    </div>
  );
}
