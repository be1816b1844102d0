import { useId } from 'react';
import { targets, useT, type Expanded } from '../../../web/storefront/context.js';
import { Input, Textarea } from '../../../web/ui/input.js';
import { cn } from '../../../web/ui/cn.js';
import { useCrmWords } from './words.js';
import { inputKey, useProblem } from './check.js';

/** input types drawn as an <input> of that HTML type; 'default' and 'text' are plain text */
const TEXT_LIKE: Record<string, string> = { default: 'text', text: 'text', email: 'email', tel: 'tel', url: 'url', date: 'date' };
const AUTOCOMPLETE: Record<string, string> = { email: 'email', tel: 'tel', url: 'url' };

export { inputKey };

const CONTROL = 'h-4 w-4 border-slate-300 text-blue-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

function Options({ input, kind, name, required, invalid }: { input: Expanded; kind: 'checkbox' | 'radio'; name: string; required: boolean; invalid: boolean }) {
  const t = useT();
  const options = targets(input, 'inputsToOptions', 'option');
  return (
    <div className="flex flex-col gap-2">
      {options.map((o) => (
        <label key={o.id} className="flex items-center gap-2 text-sm text-slate-700">
          {/* a group of checkboxes is checked on the server: HTML 'required' would demand every box */}
          <input type={kind} name={name} value={String(o.value)} required={kind === 'radio' && required} aria-invalid={invalid || undefined} className={cn(CONTROL, kind === 'checkbox' ? 'rounded' : 'rounded-full')} />
          {t(o.title) || String(o.value)}
        </label>
      ))}
    </div>
  );
}

/** the message under an input when the form's checks or the server found a problem with it (check.ts) */
function Problem({ id, text }: { id: string; text?: string }) {
  return text ? <p id={id} role="alert" className="text-sm text-red-600">{text}</p> : null;
}

/**
 * A CRM input (variants default, text-default, textarea-default, number-default): the control is
 * chosen by the input's `type`; the form reads the values by name when it is submitted, and shows a
 * problem with one under it (marked aria-invalid, described by it).
 */
export function CrmInput({ row }: { row: Expanded }) {
  const t = useT();
  const w = useCrmWords();
  const id = useId();
  const type = String(row.type ?? 'default');
  const name = inputKey(row);
  const required = row.isRequired === true;
  const label = t(row.label) || t(row.title);
  const placeholder = t(row.placeholder) || undefined;
  const help = t(row.subtitle);
  const problem = useProblem(name);
  const problemId = `${id}-problem`;
  const helpId = help ? `${id}-help` : undefined;
  const describedBy = [helpId, problem ? problemId : undefined].filter(Boolean).join(' ') || undefined;
  const common = { id, name, required, placeholder, 'aria-describedby': describedBy, 'aria-invalid': problem ? true : undefined, 'aria-label': label ? undefined : (placeholder ?? name) };

  if (type === 'hidden') return <input type="hidden" name={name} value={t(row.placeholder)} />;

  let control;
  if (type in TEXT_LIKE) control = <Input {...common} type={TEXT_LIKE[type]} autoComplete={AUTOCOMPLETE[type] ?? (name === 'name' ? 'name' : undefined)} maxLength={5000} />;
  else if (type === 'textarea') control = <Textarea {...common} rows={5} maxLength={5000} className="min-h-32" />;
  else if (type === 'number') control = <Input {...common} type="number" step="any" inputMode="decimal" />;
  else if (type === 'select') {
    control = (
      <select {...common} defaultValue="" className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/20">
        <option value="" disabled={required}>{placeholder ?? '—'}</option>
        {targets(row, 'inputsToOptions', 'option').map((o) => (
          <option key={o.id} value={String(o.value)}>{t(o.title) || String(o.value)}</option>
        ))}
      </select>
    );
  } else if (type === 'checkbox' || type === 'radio') {
    const hasOptions = targets(row, 'inputsToOptions', 'option').length > 0;
    if (type === 'checkbox' && !hasOptions) {
      return (
        <div className={cn('flex flex-col gap-1', row.className as string)}>
          <label htmlFor={id} className="flex items-start gap-2 text-sm text-slate-700">
            <input id={id} type="checkbox" name={name} value="true" required={required} aria-describedby={describedBy} aria-invalid={problem ? true : undefined} className={cn(CONTROL, 'mt-0.5 rounded')} />
            <span>{label}{required && <span aria-hidden className="text-red-600"> *</span>}</span>
          </label>
          {help && <p id={helpId} className="text-xs text-slate-500">{help}</p>}
          <Problem id={problemId} text={problem} />
        </div>
      );
    }
    return (
      <fieldset className={cn('flex flex-col gap-2', row.className as string)} aria-describedby={describedBy}>
        <legend className="mb-1 text-sm font-medium text-slate-900">{label}{required && <span aria-hidden className="text-red-600"> *</span>}</legend>
        <Options input={row} kind={type} name={name} required={required} invalid={!!problem} />
        {help && <p id={helpId} className="text-xs text-slate-500">{help}</p>}
        <Problem id={problemId} text={problem} />
      </fieldset>
    );
  } else {
    return <p className="text-sm text-red-700">{w('unknownInput')}</p>;
  }

  return (
    <div className={cn('flex flex-col gap-1.5', row.className as string)}>
      {label && (
        <label htmlFor={id} className="text-sm font-medium text-slate-900">
          {label}
          {required && <span aria-hidden className="text-red-600"> *</span>}
        </label>
      )}
      {control}
      {help && <p id={helpId} className="text-xs text-slate-500">{help}</p>}
      <Problem id={problemId} text={problem} />
    </div>
  );
}
