import { useState, type FormEvent } from 'react';
import { Button } from '../../../web/ui/button.js';
import { Input } from '../../../web/ui/input.js';
import { createHttp, ApiError } from '../../../runtime/client/index.js';

export const REFRESH_KEY = 'rbac.subject.refresh';
const http = createHttp({ baseUrl: '' });

/**
 * The rbac module's email and password sign-in: Email, Password, Login. On success the session
 * cookie is set by the server and the refresh token is kept in local storage (spec §4).
 */
export function LoginForm({ onSignedIn, title = 'Sign in' }: { onSignedIn?: () => void; title?: string }) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      const r = await http.request<{ refresh: string }>('POST', '/api/rbac/subjects/authentication/email-and-password/authentication', { data: { login, password } });
      localStorage.setItem(REFRESH_KEY, r.refresh);
      onSignedIn?.();
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? 'Invalid login or password' : (err as Error).message);
    } finally {
      setPending(false);
    }
  };
  return (
    <form onSubmit={submit} className="flex w-full max-w-sm flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" aria-label={title}>
      <h1 className="text-xl font-semibold">{title}</h1>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Email
        <Input type="email" name="email" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Password
        <Input type="password" name="password" autoComplete="current-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
      <Button type="submit" variant="primary" disabled={pending}>{pending ? 'Loading...' : 'Login'}</Button>
    </form>
  );
}
