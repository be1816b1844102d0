import { lazy, Suspense, useState, type ComponentProps } from 'react';
import type { FieldProps, RegistryFieldsType, RegistryWidgetsType, WidgetProps, FieldTemplateProps, ObjectFieldTemplateProps } from '@rjsf/utils';
import { Input, Textarea } from '../../ui/input.js';
import { Switch } from '../../ui/switch.js';
import { LocalizedInput } from '../../ui/localized-input.js';
import { DateTimePicker } from '../../ui/date-time-picker.js';
import { Skeleton } from '../../ui/skeleton.js';

// the editor (TipTap, ProseMirror) is the admin's largest piece: loaded when a form first needs it
const LazyEditor = lazy(() => import('../../ui/rich-text.js').then((m) => ({ default: m.RichTextEditor })));
function RichTextEditor(props: ComponentProps<typeof LazyEditor>) {
  return (
    <Suspense fallback={<Skeleton className="h-24 w-full" />}>
      <LazyEditor {...props} />
    </Suspense>
  );
}
import { AdminSelectInput } from './select-input.js';
import { FileWidget } from './file-widget.js';
import { useModel } from '../model.js';

const empty = (v: string) => (v === '' ? undefined : v);

/** the widgets the generic form uses, one per field kind */
export const widgets: RegistryWidgetsType = {
  text: ({ id, value, onChange, disabled, readonly, schema }: WidgetProps) => (
    <Input id={id} value={value ?? ''} disabled={disabled || readonly} maxLength={schema.maxLength} onChange={(e) => onChange(empty(e.target.value))} />
  ),
  textarea: ({ id, value, onChange, disabled, readonly }: WidgetProps) => (
    <Textarea id={id} value={value ?? ''} disabled={disabled || readonly} onChange={(e) => onChange(empty(e.target.value))} />
  ),
  number: ({ id, value, onChange, disabled, readonly, schema }: WidgetProps) => (
    <Input id={id} type="number" step={schema.type === 'integer' ? 1 : 'any'} value={value ?? ''} disabled={disabled || readonly} onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))} />
  ),
  select: ({ id, value, onChange, disabled, readonly, schema, required }: WidgetProps) => (
    <select id={id} value={value ?? ''} disabled={disabled || readonly} onChange={(e) => onChange(empty(e.target.value))} className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/20">
      {(!required || value === undefined) && <option value="">—</option>}
      {((schema.enum as string[]) ?? []).map((v) => <option key={v} value={v}>{v}</option>)}
    </select>
  ),
  switch: ({ id, value, onChange, disabled, readonly, label }: WidgetProps) => <Switch id={id} checked={!!value} label={label} disabled={disabled || readonly} onChange={onChange} />,
  datetime: ({ id, value, onChange, disabled }: WidgetProps) => <DateTimePicker id={id} value={value} disabled={disabled} onChange={(v) => onChange(v)} />,
  date: ({ id, value, onChange, disabled }: WidgetProps) => <Input id={id} type="date" value={value ?? ''} disabled={disabled} onChange={(e) => onChange(empty(e.target.value))} />,
  richText: ({ id, value, onChange, disabled }: WidgetProps) => <RichTextEditor id={id} value={value ?? ''} disabled={disabled} onChange={onChange} />,
  file: FileWidget,
  reference: function ReferenceWidget({ id, value, onChange, disabled, options }: WidgetProps) {
    const model = useModel();
    const target = model.entities.find((e) => e.id === options.target);
    if (!target) return <Input id={id} value={value ?? ''} onChange={(e) => onChange(empty(e.target.value))} />;
    return <AdminSelectInput id={id} entity={target} value={value} disabled={disabled} onChange={(v) => onChange(v ?? undefined)} />;
  },
};

/** fields whose value is an object: language maps and JSON documents */
export const fields: RegistryFieldsType = {
  localized: function LocalizedField({ fieldPathId, formData, onChange, uiSchema, disabled, readonly }: FieldProps) {
    const model = useModel();
    const opts = (uiSchema?.['ui:options'] ?? {}) as { richText?: boolean; multiline?: boolean };
    return (
      <LocalizedInput
        id={fieldPathId.$id}
        value={formData}
        languages={model.languages}
        multiline={opts.multiline}
        disabled={disabled || readonly}
        onChange={(v) => onChange(v, fieldPathId.path)}
        renderEditor={opts.richText ? (p) => <RichTextEditor key={p.lang} id={p.id} value={p.value} disabled={p.disabled} onChange={p.onChange} /> : undefined}
      />
    );
  },
  json: function JsonField({ fieldPathId, formData, onChange, disabled, readonly }: FieldProps) {
    const [text, setText] = useState(() => (formData === undefined ? '' : JSON.stringify(formData, null, 2)));
    const [bad, setBad] = useState(false);
    return (
      <div>
        <Textarea
          id={fieldPathId.$id}
          value={text}
          disabled={disabled || readonly}
          aria-invalid={bad}
          className="font-mono text-xs"
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim() === '') return setBad(false), onChange(undefined, fieldPathId.path);
            try {
              onChange(JSON.parse(e.target.value), fieldPathId.path);
              setBad(false);
            } catch {
              setBad(true);
            }
          }}
        />
        {bad && <p className="mt-1 text-xs text-red-700">Not valid JSON</p>}
      </div>
    );
  },
};

/** label, control, help and errors, Tailwind-styled */
export function FieldTemplate({ id, label, required, children, rawErrors, description, hidden, displayLabel, schema }: FieldTemplateProps) {
  if (hidden) return <div className="hidden">{children}</div>;
  if (id === 'root') return <>{children}</>;
  return (
    <div className="flex flex-col gap-1">
      {displayLabel !== false && schema.type !== 'object' || (schema.type === 'object' && label) ? (
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {label}
          {required && <span className="text-red-600"> *</span>}
        </label>
      ) : null}
      {children}
      {description && typeof description !== 'string' ? <div className="text-xs text-slate-500">{description}</div> : null}
      {rawErrors?.length ? (
        <ul className="text-xs text-red-700" role="alert">
          {rawErrors.map((e) => <li key={e}>{e}</li>)}
        </ul>
      ) : null}
    </div>
  );
}

export function ObjectFieldTemplate({ properties }: ObjectFieldTemplateProps) {
  return <div className="grid gap-4">{properties.map((p) => <div key={p.name}>{p.content}</div>)}</div>;
}
