import { useEffect, useState, type FormEvent } from 'react';
import * as loaderCircle from 'lucide-react/icons/loader-circle';
import * as send from 'lucide-react/icons/send';
import { toast } from 'sonner';
import { ApiError, createHttp } from '../../../runtime/client/index.js';
import { targets, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { Button } from '../../../web/ui/button.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';
import { lucideIcon } from '../../../web/ui/icon.js';
import { messageOf, useCurrentSubject, useSubject } from '../../rbac/web/session.js';
import { useWords } from '../../../web/storefront/words.js';
import { useCrmWords } from './words.js';
import { checkedInput, formProblems, ProblemsContext, serverProblems, type Problems } from './check.js';

const http = createHttp({ baseUrl: '' });
const Loader2 = lucideIcon(loaderCircle);
const Send = lucideIcon(send);

/** where a form's requests go (spec §7) */
export const requestsPath = (formId: string) => `/api/crm/forms/${encodeURIComponent(formId)}/requests`;

/** where a signed-in subject's requests go, linked to the subject (spec §7) */
export const subjectRequestPath = (subjectId: string) => `/api/rbac/subjects/${encodeURIComponent(subjectId)}/crm-module/form/request`;

/** the named values of a form element; several values under one name (a checkbox group) are a list */
export function formValues(form: HTMLFormElement): Record<string, string | string[]> {
  const fd = new FormData(form);
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(fd.keys())) {
    const values = fd.getAll(key).filter((v): v is string => typeof v === 'string');
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/** the keyboard's focus to the first input (in the form's order) with a problem */
function focusFirst(form: HTMLFormElement, keys: string[], problems: Problems) {
  const key = keys.find((k) => Object.hasOwn(problems, k));
  const item = key === undefined ? null : form.elements.namedItem(key);
  const control = item instanceof RadioNodeList ? item[0] : item;
  if (control instanceof HTMLElement) control.focus();
}

/**
 * crm/form 'default': title, subtitle, description and the form's inputs, each through its own
 * variant. A visitor's {"data": {...}} goes to the form's requests; a signed-in subject's, with the
 * formId, to the subject's request route, which links the request to the subject. Before hydration
 * the browser posts the same fields form-encoded to the form's requests (and checks them itself);
 * once hydrated, the form checks them as the server does (check.ts) and says what is wrong under
 * each input in the page's language, as the server's causes are said, instead of the browser's
 * popups; the first input with a problem gets the focus.
 */
export function CrmFormDefault({ row }: { row: Expanded }) {
  const t = useT();
  const w = useCrmWords();
  const sw = useWords();
  const [pending, setPending] = useState(false);
  const { status, me } = useSubject();
  const subjectOf = useCurrentSubject();
  const inputs = targets(row, 'formsToInputs', 'input');
  const title = t(row.title);
  // read while rendering: the page ships what the checks use (host/server/reads.ts)
  const checks = inputs.map(checkedInput);
  const keys = checks.map((c) => c.key);
  const [problems, setProblems] = useState<Problems>({});
  // the browser's own checks until hydrated (a form sent before it still gets them), the form's after
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = formValues(form);
    const badInput = (key: string) => {
      const item = form.elements.namedItem(key);
      return item instanceof HTMLInputElement && item.validity.badInput;
    };
    const found = formProblems(checks, values, w, badInput);
    setProblems(found);
    if (Object.keys(found).length) return focusFirst(form, keys, found);
    setPending(true);
    try {
      const subject = await subjectOf();
      if (subject) await http.request('POST', subjectRequestPath(subject.id), { data: { ...values, formId: row.id } });
      else await http.request('POST', requestsPath(row.id), { data: values });
      toast.success(w('submitted'));
      form.reset();
    } catch (err) {
      // the server's causes about the form's inputs go under them; any other, or an error without causes, in a toast
      const { found: refused, rest } = err instanceof ApiError && err.cause?.length ? serverProblems(checks, err.cause, w) : { found: {}, rest: [] };
      if (Object.keys(refused).length) {
        setProblems(refused);
        focusFirst(form, keys, refused);
        if (rest.length) toast.error(rest.join('; '));
      } else toast.error(messageOf(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      action={requestsPath(row.id)}
      method="post"
      onSubmit={submit}
      noValidate={hydrated}
      onChange={(e) => {
        // a problem goes once its input is edited
        const name = (e.target as unknown as { name?: string }).name;
        if (name && Object.hasOwn(problems, name)) setProblems(({ [name]: _, ...rest }) => rest);
      }}
      aria-label={title || w('form')}
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
      <ProblemsContext.Provider value={problems}>
        <div className="flex flex-col gap-5">
          {inputs.map((input) => (
            <Variant key={input.id} module="crm" entity="input" row={input} />
          ))}
        </div>
      </ProblemsContext.Provider>
      <Button type="submit" variant="primary" disabled={pending} className="w-full sm:w-auto sm:self-start">
        {pending ? <Loader2 className="h-4 w-4 animate-spin" /> : <Send className="h-4 w-4" />}
        {pending ? sw('sending') : sw('submit')}
      </Button>
      {status === 'signed-in' && me && <p className="-mt-3 text-xs text-slate-500">{w('signedIn')}</p>}
    </form>
  );
}
