import { useState, type FormEvent, type ReactNode } from 'react';
import { KeyRound, Mail, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../web/ui/button.js';
import { Dialog } from '../../../web/ui/dialog.js';
import { AUTH, http, type Identity } from './session.js';
import { ActionForm, Field, FormAlert, besideFields, refusalOf, useAction, useChecks } from './ui.js';
import { useRbacWords } from './words.js';

interface Props {
  subjectId: string;
  identity: Identity;
  /** after a change: reload the subject */
  onChanged: () => unknown;
}

/**
 * A dialog whose action calls the server once at a time; on success it says so, closes and lets
 * the caller reload.
 */
function useDialogAction(onChanged: () => unknown) {
  const [open, setOpen] = useState(false);
  const action = useAction();
  const run = (request: () => Promise<unknown>, done: string, after?: () => void) =>
    action.run(async () => {
      await request();
      toast.success(done);
      setOpen(false);
      after?.();
      await onChanged();
    });
  return { open, setOpen, action, run };
}

const identityPath = (subjectId: string, identityId: string) => `/api/rbac/subjects/${subjectId}/identities/${identityId}`;

/** the server's word on a current password (missing, wrong), in the page's language, for `besideFields` */
function useCurrentPasswordCause() {
  const w = useRbacWords();
  return (rule: string | undefined, serverMessage: string) => (rule === 'required' ? w('enterCurrentPassword') : rule === 'match' ? w('wrongCurrentPassword') : serverMessage);
}

/**
 * The identity dialogs' shape: a trigger button named like the dialog, a form of `children` fields, the
 * server's error (cleared by an edit or the next submit, ActionForm) and a submit button. `onOpen` runs as it
 * opens, `reset` as it closes (a dialog reopened starts clean).
 */
function FormDialog({ state, title, description, icon, submitLabel, onSubmit, onOpen, reset, children }: {
  state: ReturnType<typeof useDialogAction>;
  title: string;
  description: string;
  icon: ReactNode;
  submitLabel: string;
  onSubmit: (e: FormEvent) => unknown;
  onOpen?: () => void;
  reset: () => void;
  children: ReactNode;
}) {
  const { open, setOpen, action } = state;
  const w = useRbacWords();
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) onOpen?.();
        else {
          reset();
          action.setError(undefined);
          action.setFields({});
        }
      }}
      title={title}
      description={description}
      className="max-w-md"
      focusField
      trigger={<Button variant="outline" size="sm">{icon}{title}</Button>}
    >
      <ActionForm action={action} onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={title}>
        {children}
        <FormAlert>{action.error}</FormAlert>
        <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
          {action.pending ? w('updating') : submitLabel}
        </Button>
      </ActionForm>
    </Dialog>
  );
}

/**
 * 'Change email': PATCH the identity's email with its current password. The new address is
 * unverified until the link sent to it is opened; the old address is told.
 */
export function ChangeEmailDialog({ subjectId, identity, onChanged }: Props) {
  const state = useDialogAction(onChanged);
  const w = useRbacWords();
  const check = useChecks();
  const [email, setEmail] = useState(identity.email ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const reset = () => {
    setPassword('');
    setErrors({});
  };
  const passwordCause = useCurrentPasswordCause();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { email: check.email(email), password: check.currentPassword(password) };
    setErrors(found);
    if (found.email || found.password) return;
    const request = () => http.request('PATCH', identityPath(subjectId, identity.id), { data: { email: email.trim(), password } });
    await state.run(() => besideFields(request, { password: passwordCause }, state.action.setFields), w('updated'), () => setPassword(''));
  };
  return (
    <FormDialog state={state} title={w('changeEmail')} description={w('changeEmailText')} icon={<Mail className="h-4 w-4" aria-hidden />} submitLabel={w('update')} onSubmit={submit} onOpen={() => setEmail(identity.email ?? '')} reset={reset}>
      <Field label={w('email')} type="email" name="email" autoComplete="email" required value={email} error={errors.email ?? state.action.fields.email} onChange={(e) => setEmail(e.target.value)} />
      <Field label={w('currentPassword')} name="password" type="password" autoComplete="current-password" required minLength={8} value={password} error={errors.password ?? state.action.fields.password} onChange={(e) => setPassword(e.target.value)} />
      <p className="text-xs text-slate-500">{w('changeEmailNote')}</p>
    </FormDialog>
  );
}

/** 'Change Password': the current and the new password, sent as multipart with a 'data' JSON part (spec §7) */
export function ChangePasswordDialog({ identity, onChanged }: Props) {
  const state = useDialogAction(onChanged);
  const w = useRbacWords();
  const check = useChecks();
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; newPassword?: string }>({});
  const reset = () => {
    setPassword('');
    setNewPassword('');
    setErrors({});
  };
  const passwordCause = useCurrentPasswordCause();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { password: check.currentPassword(password), newPassword: check.password(newPassword) };
    setErrors(found);
    if (found.password || found.newPassword) return;
    // `files` makes the client send multipart/form-data: the 'data' part holds the JSON
    const request = () => http.request('PATCH', `/api/rbac/identities/${identity.id}/change-password`, { data: { password, newPassword }, files: {} });
    // the server names the field it refuses ('password': the current one is wrong): its message goes beside that input
    await state.run(() => besideFields(request, { password: passwordCause, newPassword: (_, message) => message }, state.action.setFields), w('updated'), reset);
  };
  return (
    <FormDialog state={state} title={w('changePassword')} description={w('changePasswordText')} icon={<KeyRound className="h-4 w-4" aria-hidden />} submitLabel={w('updatePassword')} onSubmit={submit} reset={reset}>
      <Field label={w('currentPassword')} name="password" type="password" autoComplete="current-password" required minLength={8} value={password} error={errors.password ?? state.action.fields.password} onChange={(e) => setPassword(e.target.value)} />
      <Field label={w('newPassword')} name="newPassword" type="password" autoComplete="new-password" required minLength={8} value={newPassword} error={errors.newPassword ?? state.action.fields.newPassword} onChange={(e) => setNewPassword(e.target.value)} />
    </FormDialog>
  );
}

/**
 * 'Add email': a new email and password sign-in for the subject. The account's current password is
 * asked for when it has one (`needsCurrentPassword`); the new address gets a verification link.
 */
export function AddEmailIdentityDialog({ needsCurrentPassword, onChanged }: { needsCurrentPassword: boolean; onChanged: () => unknown }) {
  const state = useDialogAction(onChanged);
  const w = useRbacWords();
  const check = useChecks();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; currentPassword?: string }>({});
  const passwordCause = useCurrentPasswordCause();
  const reset = () => {
    setEmail('');
    setPassword('');
    setCurrentPassword('');
    setErrors({});
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { email: check.email(email), password: check.password(password), currentPassword: needsCurrentPassword ? check.currentPassword(currentPassword) : undefined };
    setErrors(found);
    if (found.email || found.password || found.currentPassword) return;
    const data = { email: email.trim(), password, ...(needsCurrentPassword && { currentPassword }) };
    await state.run(() => besideFields(() => http.request('POST', '/api/rbac/identities/email-and-password', { data }), { currentPassword: passwordCause }, state.action.setFields), w('updated'), reset);
  };
  return (
    <FormDialog state={state} title={w('addEmail')} description={w('addEmailText')} icon={<Plus className="h-4 w-4" aria-hidden />} submitLabel={w('submit')} onSubmit={submit} reset={reset}>
      <Field label={w('email')} type="email" name="email" autoComplete="email" placeholder={w('typeYourEmail')} required value={email} error={errors.email} onChange={(e) => setEmail(e.target.value)} />
      <Field label={w('password')} name="password" type="password" autoComplete="new-password" required minLength={8} value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
      {needsCurrentPassword && (
        <Field label={w('currentPassword')} name="currentPassword" type="password" autoComplete="current-password" required minLength={8} value={currentPassword} error={errors.currentPassword ?? state.action.fields.currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} />
      )}
    </FormDialog>
  );
}

/** 'Resend': sends the verification link again to an unverified address */
export function ResendVerificationButton({ identity }: { identity: Identity }) {
  const action = useAction();
  const w = useRbacWords();
  const resend = () =>
    action.run(async () => {
      try {
        await http.request('POST', `${AUTH}/email-and-password/verify/resend`, { data: { identityId: identity.id } });
      } catch (e) {
        toast.error(refusalOf(e, w));
        throw e;
      }
      toast.success(w('verificationSent'));
    });
  return (
    <Button variant="link" size="sm" onClick={resend} disabled={action.pending} aria-busy={action.pending}>
      {action.pending ? w('sending') : w('resend')}
    </Button>
  );
}

/**
 * 'Delete' with a confirmation; the server keeps an account's last identity. Removing a login is a change of the
 * account like adding one: the current password is asked for when the account has one (`needsCurrentPassword`).
 */
export function DeleteIdentityDialog({ subjectId, identity, onChanged, needsCurrentPassword }: Props & { needsCurrentPassword: boolean }) {
  const { open, setOpen, action, run } = useDialogAction(onChanged);
  const w = useRbacWords();
  const check = useChecks();
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<string>();
  const passwordCause = useCurrentPasswordCause();
  const remove = async (e: FormEvent) => {
    e.preventDefault();
    const problem = needsCurrentPassword ? check.currentPassword(currentPassword) : undefined;
    setError(problem);
    if (problem) return;
    const body = needsCurrentPassword ? { data: { currentPassword } } : undefined;
    const request = () => http.request('DELETE', identityPath(subjectId, identity.id), body);
    await run(() => (needsCurrentPassword ? besideFields(request, { currentPassword: passwordCause }, action.setFields) : request()), w('deleted'), () => setCurrentPassword(''));
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) {
          action.setError(undefined);
          action.setFields({});
          setCurrentPassword('');
          setError(undefined);
        }
      }}
      title={w('deleteQuestion')}
      description={w('deleteText')}
      className="max-w-md"
      trigger={<Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50"><Trash2 className="h-4 w-4" aria-hidden />{w('delete')}</Button>}
    >
      <ActionForm action={action} onSubmit={remove} noValidate className="flex flex-col gap-4" aria-label={w('deleteQuestion')}>
        {needsCurrentPassword && (
          <Field autoFocus label={w('currentPassword')} name="currentPassword" type="password" autoComplete="current-password" required minLength={8} value={currentPassword} error={error ?? action.fields.currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} />
        )}
        <FormAlert>{action.error}</FormAlert>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => setOpen(false)}>{w('cancel')}</Button>
          <Button type="submit" variant="destructive" disabled={action.pending} aria-busy={action.pending}>
            {action.pending ? w('deleting') : w('delete')}
          </Button>
        </div>
      </ActionForm>
    </Dialog>
  );
}
