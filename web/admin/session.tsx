import { createContext, useContext } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../runtime/client/index.js';
import { http, REFRESH_KEY, refreshSession } from './api.js';

export interface Me {
  id: string;
  isAdmin: boolean;
  identities: { email?: string | null; provider: string }[];
  roles: { slug: string; title: string }[];
}

/** the signed-in subject, or null for a visitor; a 401 is an answer here, not an error */
export function useSession() {
  return useQuery({
    queryKey: ['rbac', 'me'],
    queryFn: async () => {
      try {
        const me = await http.request<Me | null>('GET', '/api/rbac/subjects/authentication/me');
        // nobody, while a refresh token is kept: the session token expired; one refresh, then ask again
        if (me || !(await refreshSession())) return me;
        return await http.request<Me | null>('GET', '/api/rbac/subjects/authentication/me');
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
  });
}

/** what the admin's gate is told when the editor signs out on purpose: the refusals that follow are no session ending */
export const SessionEndContext = createContext<{ signedOut(): void }>({ signedOut: () => undefined });

export function useSignOut() {
  const qc = useQueryClient();
  const end = useContext(SessionEndContext);
  return async () => {
    end.signedOut();
    await http.request('POST', '/api/rbac/subjects/authentication/logout', { data: { refresh: localStorage.getItem(REFRESH_KEY) } }).catch(() => undefined);
    localStorage.removeItem(REFRESH_KEY);
    qc.clear();
    await qc.invalidateQueries();
  };
}
