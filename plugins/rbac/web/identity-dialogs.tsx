import { useState, type FormEvent } from 'react';
import { KeyRound, Mail, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../web/ui/button.js';
import { Dialog } from '../../../web/ui/dialog.js';
import { AUTH, http, messageOf, type Identity } from './session.js';
import { Field, FormAlert, checkEmail, checkPassword, useAction } from './ui.js';

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

/**
 * 'Change email': PATCH the identity's email with its current password. The new address is
 * unverified until the link sent to it is opened; the old address is told.
 */
export function ChangeEmailDialog({ subjectId, identity, onChanged }: Props) {
  const { open, setOpen, action, run } = useDialogAction(onChanged);
  const [email, setEmail] = useState(identity.email ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { email: checkEmail(email), password: checkPassword(password) };
    setErrors(found);
    if (found.email || found.password) return;
    await run(() => http.request('PATCH', identityPath(subjectId, identity.id), { data: { email: email.trim(), password } }), 'Updated successfully', () => setPassword(''));
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setEmail(identity.email ?? '');
        if (!o) {
          setPassword('');
          setErrors({});
          action.setError(undefined);
        }
      }}
      title="Change email"
      description="The address you sign in with and receive account emails at."
      className="max-w-md"
      trigger={<Button variant="outline" size="sm"><Mail className="h-4 w-4" aria-hidden />Change email</Button>}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Change email">
        <Field label="Email" type="email" name="email" autoComplete="email" required value={email} error={errors.email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Current password" name="password" type="password" autoComplete="current-password" required minLength={8} value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
        <p className="text-xs text-slate-500">We will send a link to the new address to verify it, and tell the old one.</p>
        <FormAlert>{action.error}</FormAlert>
        <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
          {action.pending ? 'Updating...' : 'Update'}
        </Button>
      </form>
    </Dialog>
  );
}

/** 'Change Password': the current and the new password, sent as multipart with a 'data' JSON part (spec §7) */
export function ChangePasswordDialog({ identity, onChanged }: Props) {
  const { open, setOpen, action, run } = useDialogAction(onChanged);
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; newPassword?: string }>({});
  const reset = () => {
    setPassword('');
    setNewPassword('');
    setErrors({});
    action.setError(undefined);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { password: checkPassword(password), newPassword: checkPassword(newPassword) };
    setErrors(found);
    if (found.password || found.newPassword) return;
    // `files` makes the client send multipart/form-data: the 'data' part holds the JSON
    await run(() => http.request('PATCH', `/api/rbac/identities/${identity.id}/change-password`, { data: { password, newPassword }, files: {} }), 'Updated successfully', reset);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) reset();
      }}
      title="Change Password"
      description="Update your account password."
      className="max-w-md"
      trigger={<Button variant="outline" size="sm"><KeyRound className="h-4 w-4" aria-hidden />Change Password</Button>}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Change Password">
        <Field label="Current password" name="password" type="password" autoComplete="current-password" required minLength={8} value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required minLength={8} value={newPassword} error={errors.newPassword} onChange={(e) => setNewPassword(e.target.value)} />
        <FormAlert>{action.error}</FormAlert>
        <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
          {action.pending ? 'Updating...' : 'Update password'}
        </Button>
      </form>
    </Dialog>
  );
}

/**
 * 'Add email': a new email and password sign-in for the subject. The account's current password is
 * asked for when it has one (`needsCurrentPassword`); the new address gets a verification link.
 */
export function AddEmailIdentityDialog({ needsCurrentPassword, onChanged }: { needsCurrentPassword: boolean; onChanged: () => unknown }) {
  const { open, setOpen, action, run } = useDialogAction(onChanged);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; currentPassword?: string }>({});
  const reset = () => {
    setEmail('');
    setPassword('');
    setCurrentPassword('');
    setErrors({});
    action.setError(undefined);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { email: checkEmail(email), password: checkPassword(password), currentPassword: needsCurrentPassword ? checkPassword(currentPassword) : undefined };
    setErrors(found);
    if (found.email || found.password || found.currentPassword) return;
    const data = { email: email.trim(), password, ...(needsCurrentPassword && { currentPassword }) };
    await run(() => http.request('POST', '/api/rbac/identities/email-and-password', { data }), 'Updated successfully', reset);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) reset();
      }}
      title="Add email"
      description="Sign in with an email and password as well."
      className="max-w-md"
      trigger={<Button variant="outline" size="sm"><Plus className="h-4 w-4" aria-hidden />Add email</Button>}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Add email">
        <Field label="Email" type="email" name="email" autoComplete="email" placeholder="Type your email" required value={email} error={errors.email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={8} value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
        {needsCurrentPassword && (
          <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required minLength={8} value={currentPassword} error={errors.currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} />
        )}
        <FormAlert>{action.error}</FormAlert>
        <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
          {action.pending ? 'Updating...' : 'Submit'}
        </Button>
      </form>
    </Dialog>
  );
}

/** 'Resend': sends the verification link again to an unverified address */
export function ResendVerificationButton({ identity }: { identity: Identity }) {
  const action = useAction();
  const resend = () =>
    action.run(async () => {
      try {
        await http.request('POST', `${AUTH}/email-and-password/verify/resend`, { data: { identityId: identity.id } });
      } catch (e) {
        toast.error(messageOf(e));
        throw e;
      }
      toast.success('Verification email sent');
    });
  return (
    <Button variant="link" size="sm" onClick={resend} disabled={action.pending} aria-busy={action.pending}>
      {action.pending ? 'Sending...' : 'Resend'}
    </Button>
  );
}

/** 'Delete' with a confirmation; the server keeps an account's last identity */
export function DeleteIdentityDialog({ subjectId, identity, onChanged }: Props) {
  const { open, setOpen, action, run } = useDialogAction(onChanged);
  const remove = () => run(() => http.request('DELETE', identityPath(subjectId, identity.id)), 'Deleted successfully');
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) action.setError(undefined);
      }}
      title="Delete?"
      description="You will no longer be able to sign in with this method."
      className="max-w-md"
      trigger={<Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50"><Trash2 className="h-4 w-4" aria-hidden />Delete</Button>}
    >
      <div className="flex flex-col gap-4">
        <FormAlert>{action.error}</FormAlert>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => setOpen(false)}>Cancel</Button>
          <Button variant="destructive" onClick={remove} disabled={action.pending} aria-busy={action.pending}>
            {action.pending ? 'Deleting...' : 'Delete'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
