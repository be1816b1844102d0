import { useState, type FormEvent } from 'react';
import { KeyRound, Mail, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../web/ui/button.js';
import { Dialog } from '../../../web/ui/dialog.js';
import { http, type Identity } from './session.js';
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

/** 'Change email': PATCH the identity's email */
export function ChangeEmailDialog({ subjectId, identity, onChanged }: Props) {
  const { open, setOpen, action, run } = useDialogAction(onChanged);
  const [email, setEmail] = useState(identity.email ?? '');
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = checkEmail(email);
    setError(found);
    if (found) return;
    await run(() => http.request('PATCH', identityPath(subjectId, identity.id), { data: { email: email.trim() } }), 'Updated successfully');
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setEmail(identity.email ?? '');
      }}
      title="Change email"
      description="The address you sign in with and receive account emails at."
      className="max-w-md"
      trigger={<Button variant="outline" size="sm"><Mail className="h-4 w-4" aria-hidden />Change email</Button>}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Change email">
        <Field label="Email" type="email" name="email" autoComplete="email" required value={email} error={error} onChange={(e) => setEmail(e.target.value)} />
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
