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

const identityPath = (subjectId: string, identityId: string) => `/api/rbac/subjects/${subjectId}/identities/${identityId}`;

/** 'Change email': PATCH the identity's email */
export function ChangeEmailDialog({ subjectId, identity, onChanged }: Props) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState(identity.email ?? '');
  const [error, setError] = useState<string>();
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = checkEmail(email);
    setError(found);
    if (found) return;
    await action.run(async () => {
      await http.request('PATCH', identityPath(subjectId, identity.id), { data: { email: email.trim() } });
      toast.success('Updated successfully');
      setOpen(false);
      await onChanged();
    });
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
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; newPassword?: string }>({});
  const action = useAction();
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
    await action.run(async () => {
      // `files` makes the client send multipart/form-data: the 'data' part holds the JSON
      await http.request('PATCH', `/api/rbac/identities/${identity.id}/change-password`, { data: { password, newPassword }, files: {} });
      toast.success('Updated successfully');
      setOpen(false);
      reset();
      await onChanged();
    });
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
  const [open, setOpen] = useState(false);
  const action = useAction();
  const remove = () =>
    action.run(async () => {
      await http.request('DELETE', identityPath(subjectId, identity.id));
      toast.success('Deleted successfully');
      setOpen(false);
      await onChanged();
    });
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
