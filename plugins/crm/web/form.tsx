import { useState, type FormEvent } from 'react';
import { Loader2, Send } from 'lucide-react';
import { toast } from 'sonner';
import { createHttp } from '../../../runtime/client/index.js';
import { targets, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { Button } from '../../../web/ui/button.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';

const http = createHttp({ baseUrl: '' });

/** where a form's requests go (spec §7) */
export const requestsPath = (formId: string) => `/api/crm/forms/${encodeURIComponent(formId)}/requests`;

/** the named values of a form element; several values under one name (a checkbox group) are joined with ', ' */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const fd = new FormData(form);
  const out: Record<string, string> = {};
  for (const key of new Set(fd.keys())) {
    out[key] = fd.getAll(key).filter((v): v is string => typeof v === 'string').join(', ');
  }
  return out;
}

/**
 * crm/form 'default': title, subtitle, description and the form's inputs, each through its own
 * variant. Submits {"data": {...}} to the form's requests; before hydration the browser posts the
 * same fields form-encoded to the same address.
 */
export function CrmFormDefault({ row }: { row: Expanded }) {
  const t = useT();
  const [pending, setPending] = useState(false);
  const inputs = targets(row, 'formsToInputs', 'input');
  const title = t(row.title);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setPending(true);
    try {
      await http.request('POST', requestsPath(row.id), { data: formValues(form) });
      toast.success('Form submitted successfully');
      form.reset();
    } catch (err) {
      toast.error((err as Error).message);
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      action={requestsPath(row.id)}
      method="post"
      onSubmit={submit}
      aria-label={title || 'Form'}
      aria-busy={pending}
      className={cn('flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm lg:p-8', row.className as string)}
    >
      {(title || t(row.subtitle) || t(row.description)) && (
        <header>
          {title && <h3 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h3>}
          {t(row.subtitle) && <p className="mt-2 text-slate-600">{t(row.subtitle)}</p>}
          {t(row.description) && <RichTextView value={t(row.description)} className="mt-3 text-sm text-slate-600" />}
        </header>
      )}
      <div className="flex flex-col gap-5">
        {inputs.map((input) => (
          <Variant key={input.id} module="crm" entity="input" row={input} />
        ))}
      </div>
      <Button type="submit" variant="primary" disabled={pending} className="w-full sm:w-auto sm:self-start">
        {pending ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : <Send aria-hidden className="h-4 w-4" />}
        {pending ? 'Sending...' : 'Submit'}
      </Button>
    </form>
  );
}
