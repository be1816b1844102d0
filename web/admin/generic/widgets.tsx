import { lazy, Suspense, useEffect, useRef, useState, type ComponentProps } from 'react';
import type { FieldProps, RegistryFieldsType, RegistryWidgetsType, WidgetProps, FieldTemplateProps, ObjectFieldTemplateProps } from '@rjsf/utils';
import { Plus, Trash2 } from 'lucide-react';
import { Input, Textarea } from '../../ui/input.js';
import { Switch } from '../../ui/switch.js';
import { LocalizedInput } from '../../ui/localized-input.js';
import { DateTimePicker, DATE_TIME_ERROR } from '../../ui/date-time-picker.js';
import { Skeleton } from '../../ui/skeleton.js';
import { Button } from '../../ui/button.js';
import { AdminSelectInput } from './select-input.js';
import { FileWidget } from './file-widget.js';
import { causeInWords } from './form-schema.js';
import { useModel } from '../model.js';
import { enumLabel, humanize, moduleTitle } from '../labels.js';

// the editor (TipTap, ProseMirror) is the admin's largest piece: loaded when a form first needs it
const LazyEditor = lazy(() => import('../../ui/rich-text.js').then((m) => ({ default: m.RichTextEditor })));
function RichTextEditor(props: ComponentProps<typeof LazyEditor>) {
  return (
    <Suspense fallback={<Skeleton className="h-24 w-full" />}>
      <LazyEditor linkEditor="inline" {...props} />
    </Suspense>
  );
}

/** what the generic form shares with its widgets */
export interface FormContext {
  /** the form's current data (a widget that depends on another field reads it here) */
  formData: Record<string, unknown>;
  /** a field whose typed text is refused (a date the picker could not read): saving is blocked */
  setInvalid: (field: string, invalid: boolean) => void;
  /** a file was uploaded into a field: the form fills what it can from it (title, size, type…) */
  onUploaded?: (field: string, file: File, answer: Record<string, unknown>) => void;
}

const ctxOf = (p: { registry: { formContext: unknown } }) => (p.registry.formContext ?? {}) as Partial<FormContext>;
const empty = (v: string) => (v === '' ? undefined : v);
const invalid = (rawErrors?: string[]) => (rawErrors?.length ? true : undefined);
/** the field's name in the form data */
const nameOf = (p: WidgetProps) => String(p.name ?? '');
/** the field's hint ('Generated when left blank'), which FieldTemplate shows under the control, describes it */
const helpOf = (p: Pick<WidgetProps, 'id' | 'uiSchema'>) => (typeof p.uiSchema?.['ui:help'] === 'string' ? `${p.id}-help` : undefined);
const SELECT = 'h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/20 disabled:opacity-50 aria-[invalid=true]:border-red-600';

/**
 * The empty choice of a select. An optional field offers '—', which clears it. A field that always holds a
 * value (required, or with a default: `blank: false`) offers none; only while it has no value yet does it show
 * 'Choose…', which cannot be picked back.
 */
function BlankOption({ value, required, blank }: { value: unknown; required?: boolean; blank?: unknown }) {
  if (!required && blank !== false) return <option value="">—</option>;
  if (value === undefined || value === null || value === '') return <option value="" disabled>Choose…</option>;
  return null;
}

/** the widgets the generic form uses, one per field kind */
export const widgets: RegistryWidgetsType = {
  text: ({ id, value, onChange, disabled, readonly, schema, placeholder, rawErrors, options, uiSchema }: WidgetProps) => (
    <Input
      id={id}
      aria-describedby={helpOf({ id, uiSchema })}
      value={value ?? ''}
      disabled={disabled || readonly}
      maxLength={schema.maxLength}
      placeholder={placeholder}
      aria-invalid={invalid(rawErrors)}
      className="aria-[invalid=true]:border-red-600"
      // a path field ('^/…'): the leading slash is added for the editor as they type, so that a form sent with Enter
      // from the field sends it too
      onChange={(e) => onChange(empty(options.leadingSlash && e.target.value && !e.target.value.startsWith('/') ? `/${e.target.value}` : e.target.value))}
    />
  ),
  textarea: ({ id, value, onChange, disabled, readonly, placeholder, rawErrors }: WidgetProps) => (
    <Textarea id={id} value={value ?? ''} placeholder={placeholder} disabled={disabled || readonly} aria-invalid={invalid(rawErrors)} onChange={(e) => onChange(empty(e.target.value))} />
  ),
  number: ({ id, value, onChange, disabled, readonly, schema, rawErrors, placeholder }: WidgetProps) => (
    <Input id={id} type="number" step={schema.type === 'integer' ? 1 : 'any'} value={value ?? ''} placeholder={placeholder} disabled={disabled || readonly} aria-invalid={invalid(rawErrors)} onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))} />
  ),
  select: ({ id, value, onChange, disabled, readonly, schema, required, rawErrors, options, uiSchema }: WidgetProps) => (
    <select id={id} aria-describedby={helpOf({ id, uiSchema })} value={value ?? ''} disabled={disabled || readonly} aria-invalid={invalid(rawErrors)} onChange={(e) => onChange(empty(e.target.value))} className={SELECT}>
      <BlankOption value={value} required={required} blank={options.blank} />
      {((schema.enum as string[]) ?? []).map((v) => <option key={v} value={v}>{enumLabel(v)}</option>)}
    </select>
  ),
  language: function LanguageWidget({ id, value, onChange, disabled, readonly, required, rawErrors, options }: WidgetProps) {
    const model = useModel();
    const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'language' }) : undefined;
    const known = !value || model.languages.includes(value);
    return (
      <select id={id} value={value ?? ''} disabled={disabled || readonly} aria-invalid={invalid(rawErrors)} onChange={(e) => onChange(empty(e.target.value))} className={SELECT}>
        <BlankOption value={value} required={required} blank={options.blank} />
        {!known && <option value={value}>{value}</option>}
        {model.languages.map((l) => <option key={l} value={l}>{`${names?.of(l) ?? l} (${l})`}</option>)}
      </select>
    );
  },
  switch: ({ id, value, onChange, disabled, readonly, label }: WidgetProps) => <Switch id={id} checked={!!value} label={label} disabled={disabled || readonly} onChange={onChange} />,
  datetime: (p: WidgetProps) => (
    <DateTimePicker id={p.id} value={p.value} disabled={p.disabled || p.readonly} onChange={(v) => p.onChange(v)} onValidityChange={(bad) => ctxOf(p).setInvalid?.(nameOf(p), bad)} />
  ),
  // the same picker as a date-time's, for a day alone: shown DD.MM.YYYY like the table, stored YYYY-MM-DD as the API has it
  // (the native date input showed the browser's own order, 03/15/2026 in en-US, beside the table's 15.03.2026)
  date: (p: WidgetProps) => (
    <DateTimePicker dateOnly id={p.id} value={p.value} disabled={p.disabled || p.readonly} onChange={(v) => p.onChange(v)} onValidityChange={(bad) => ctxOf(p).setInvalid?.(nameOf(p), bad)} />
  ),
  richText: ({ id, value, onChange, disabled, label }: WidgetProps) => <RichTextEditor id={id} value={value ?? ''} disabled={disabled} label={label} onChange={onChange} />,
  file: FileWidget,
  reference: function ReferenceWidget({ id, value, onChange, disabled, options, rawErrors }: WidgetProps) {
    const model = useModel();
    const target = model.entities.find((e) => e.id === options.target);
    if (!target) return <Input id={id} value={value ?? ''} onChange={(e) => onChange(empty(e.target.value))} />;
    return <AdminSelectInput id={id} entity={target} value={value} disabled={disabled} invalid={!!rawErrors?.length} onChange={(v) => onChange(v ?? undefined)} />;
  },
  /** a reference whose entity is chosen by a sibling module field: pick the module there, then the row here */
  polyReference: function PolyReferenceWidget(p: WidgetProps) {
    const model = useModel();
    const { moduleField, name } = p.options as { moduleField: string; name: string };
    const module = ctxOf(p).formData?.[moduleField] as string | undefined;
    const target = module ? model.entities.find((e) => e.module === module && e.name === name) : undefined;
    if (!module) return <p className="text-sm text-slate-500">Choose the {humanize(moduleField).toLowerCase()} first</p>;
    if (!target) return <p className="text-sm text-red-700">{moduleTitle(module)} has no {name}</p>;
    return <AdminSelectInput id={p.id} entity={target} value={p.value} disabled={p.disabled} invalid={!!p.rawErrors?.length} onChange={(v) => p.onChange(v ?? undefined)} />;
  },
};

type Pair = { key: string; value: string; raw?: unknown };
const isFlat = (v: unknown) => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x)));
const pairsOf = (v: unknown): Pair[] => Object.entries((v ?? {}) as Record<string, unknown>).map(([key, raw]) => ({ key, value: raw === null ? '' : String(raw), raw }));
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/**
 * A pair's value with the type it had: a number stays a number while the text reads as one, a boolean stays a
 * boolean while it says true or false, an emptied null stays null; text the old type cannot read is kept as
 * text. A new entry is text.
 */
export function typedValue(p: Pair): unknown {
  const text = p.value.trim();
  if (typeof p.raw === 'number' && NUMBER.test(text) && Number.isFinite(Number(text))) return Number(text);
  if (typeof p.raw === 'boolean' && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (p.raw === null && p.value === '') return null;
  return p.value;
}
/** the keys entered more than once (by their trimmed text) */
export function duplicateKeys(pairs: Pair[]): Set<string> {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const p of pairs) {
    const k = p.key.trim();
    if (!k) continue;
    if (seen.has(k)) dup.add(k);
    seen.add(k);
  }
  return dup;
}
export const DUPLICATE_KEY = 'This key is already used above: use each key once';
export const MISSING_KEY = 'Give this value a key, or remove the entry';
/** an entry with a value but no key: it would be left out of the saved object without a word */
export const missingKey = (p: Pair) => !p.key.trim() && p.value.trim() !== '';
function objectOf(pairs: Pair[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  // a duplicate key or a value without a key blocks saving (the field is marked invalid); meanwhile the first
  // entry of a key is kept and a value without a key is left out
  for (const p of pairs) if (p.key.trim() && !(p.key.trim() in out)) out[p.key.trim()] = typedValue(p);
  return Object.keys(out).length ? out : undefined;
}

/** fields whose value is an object: language maps and JSON documents */
export const fields: RegistryFieldsType = {
  localized: function LocalizedField({ fieldPathId, formData, onChange, uiSchema, disabled, readonly, schema }: FieldProps) {
    const model = useModel();
    const opts = (uiSchema?.['ui:options'] ?? {}) as { richText?: boolean; multiline?: boolean };
    return (
      <LocalizedInput
        id={fieldPathId.$id}
        value={formData}
        languages={model.languages}
        multiline={opts.multiline}
        disabled={disabled || readonly}
        onChange={(v) => onChange(Object.keys(v).length ? v : undefined, fieldPathId.path)}
        renderEditor={opts.richText ? (p) => <RichTextEditor key={p.lang} id={p.id} label={`${schema.title ?? ''} (${p.lang.toUpperCase()})`} value={p.value} disabled={p.disabled} onChange={p.onChange} /> : undefined}
      />
    );
  },
  /** a JSON document: key / value pairs when it is flat (a form's answers), else JSON text */
  json: function JsonField(props: FieldProps) {
    const { fieldPathId, formData, onChange, disabled, readonly } = props;
    const [asText, setAsText] = useState(() => !isFlat(formData));
    const [pairs, setPairs] = useState<Pair[]>(() => pairsOf(isFlat(formData) ? formData : undefined));
    const [text, setText] = useState(() => (formData === undefined ? '' : JSON.stringify(formData, null, 2)));
    const [bad, setBad] = useState(false);
    const off = disabled || readonly;
    const id = fieldPathId.$id;
    const setAll = (next: Pair[]) => {
      setPairs(next);
      onChange(objectOf(next), fieldPathId.path);
    };
    const dups = duplicateKeys(pairs);
    // a duplicate key, a value without a key (or JSON that does not parse) blocks saving: the form refuses the
    // field until it is fixed
    const blocked = asText ? bad : dups.size > 0 || pairs.some(missingKey);
    // Add entry: the keyboard goes on in the new entry's key
    const group = useRef<HTMLDivElement>(null);
    const [focusKey, setFocusKey] = useState<number>();
    useEffect(() => {
      if (focusKey === undefined) return;
      group.current?.querySelector<HTMLInputElement>(`input[aria-label="Key ${focusKey + 1}"]`)?.focus();
      setFocusKey(undefined);
    }, [focusKey]);
    const setInvalid = ctxOf(props).setInvalid;
    const name = String(props.name ?? '');
    useEffect(() => {
      setInvalid?.(name, blocked);
    }, [blocked, name, setInvalid]);
    useEffect(() => () => setInvalid?.(name, false), [name, setInvalid]);
    if (!asText) {
      return (
        <div ref={group} className="flex flex-col gap-2" role="group" aria-labelledby={`${id}-label`}>
          {pairs.length === 0 && <p className="text-sm text-slate-500">No entries</p>}
          {pairs.map((p, i) => {
            // the later entries of a key are the duplicates: each is marked beside its key
            const dup = dups.has(p.key.trim()) && pairs.findIndex((x) => x.key.trim() === p.key.trim()) < i;
            const problem = dup ? DUPLICATE_KEY : missingKey(p) ? MISSING_KEY : undefined;
            const errorId = `${id}-key-${i}-error`;
            return (
              <div key={i} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] gap-2">
                <Input id={i === 0 ? id : undefined} aria-label={`Key ${i + 1}`} value={p.key} disabled={off} placeholder="Key" aria-invalid={problem ? true : undefined} aria-describedby={problem ? errorId : undefined} className="aria-[invalid=true]:border-red-600" onChange={(e) => setAll(pairs.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))} />
                <Input aria-label={p.key ? `Value of ${p.key}` : `Value ${i + 1}`} value={p.value} disabled={off} placeholder="Value" onChange={(e) => setAll(pairs.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
                <Button size="icon" variant="ghost" aria-label={`Remove ${p.key || `entry ${i + 1}`}`} disabled={off} onClick={() => setAll(pairs.filter((_, j) => j !== i))}><Trash2 className="h-4 w-4" /></Button>
                {problem && <p id={errorId} role="alert" className="col-span-3 -mt-1 text-xs text-red-700">{problem}</p>}
              </div>
            );
          })}
          <div className="flex gap-2">
            <Button size="sm" variant="outline" disabled={off} onClick={() => { setPairs([...pairs, { key: '', value: '' }]); setFocusKey(pairs.length); }}><Plus className="h-4 w-4" /> Add entry</Button>
            <Button size="sm" variant="ghost" onClick={() => { setText(formData === undefined ? '' : JSON.stringify(formData, null, 2)); setAsText(true); }}>Edit as JSON</Button>
          </div>
        </div>
      );
    }
    return (
      <div>
        <Textarea
          id={id}
          value={text}
          disabled={off}
          aria-invalid={bad}
          className="font-mono text-xs"
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim() === '') return setBad(false), onChange(undefined, fieldPathId.path);
            try {
              const parsed = JSON.parse(e.target.value);
              onChange(parsed, fieldPathId.path);
              setBad(false);
              if (isFlat(parsed)) setPairs(pairsOf(parsed));
            } catch {
              setBad(true);
            }
          }}
        />
        {bad && <p className="mt-1 text-xs text-red-700">Not valid JSON</p>}
        {!bad && isFlat(formData) && (
          <Button
            size="sm"
            variant="ghost"
            className="mt-1"
            onClick={() => {
              // the JSON unchanged: the entries come back as they were, those still to fix (a repeated key, a value
              // without a key) with them; changed, they are the JSON's
              if (JSON.stringify(objectOf(pairs) ?? null) !== JSON.stringify(formData ?? null)) setPairs(pairsOf(formData));
              setAsText(false);
            }}
          >
            Edit as key / value pairs
          </Button>
        )}
      </div>
    );
  },
};

/** label (with a mark on required fields), control, help and errors in words */
export function FieldTemplate({ id, label, required, children, rawErrors, rawHelp, description, hidden, schema, uiSchema, fieldPathId }: FieldTemplateProps) {
  if (hidden) return <div className="hidden">{children}</div>;
  if (id === 'root') return <>{children}</>;
  const widget = uiSchema?.['ui:widget'];
  // the date and date-time pickers and the JSON editor say their own error beside the field (the form only blocks saving)
  // a server cause names the field by its label ('URL is already taken'), not its raw name ('url …')
  const name = fieldPathId?.path?.at(-1);
  const errors = [...new Set((rawErrors ?? []).filter((e) => !((widget === 'datetime' || widget === 'date' || uiSchema?.['ui:field'] === 'json') && e === DATE_TIME_ERROR)).map((e) => causeInWords(e, typeof name === 'string' ? name : undefined, label)))];
  const help = typeof schema.description === 'string' ? schema.description : undefined;
  return (
    <div className="flex flex-col gap-1" data-field-invalid={errors.length ? 'true' : undefined}>
      <label id={`${id}-label`} htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
        {required && <span className="text-red-600" aria-hidden> *</span>}
        {required && <span className="sr-only"> (required)</span>}
      </label>
      {children}
      {help ? <div className="text-xs text-slate-500">{help}</div> : description && typeof description !== 'string' ? <div className="text-xs text-slate-500">{description}</div> : null}
      {rawHelp && <div className="text-xs text-slate-500" id={`${id}-help`}>{rawHelp}</div>}
      {errors.length ? (
        <ul className="text-xs text-red-700" role="alert" id={`${id}-error`}>
          {errors.map((e) => <li key={e}>{e}</li>)}
        </ul>
      ) : null}
    </div>
  );
}

export function ObjectFieldTemplate({ properties }: ObjectFieldTemplateProps) {
  return <div className="grid gap-4">{properties.map((p) => <div key={p.name} className={p.hidden ? 'hidden' : undefined}>{p.content}</div>)}</div>;
}
