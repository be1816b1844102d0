import { createContext, useContext, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { http, type EntityInfo, type ModelInfo } from './api.js';
import { ApiError } from '../../runtime/client/index.js';

const ModelContext = createContext<ModelInfo | undefined>(undefined);

export function ModelProvider({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const q = useQuery({ queryKey: ['admin', 'model'], queryFn: () => http.request<ModelInfo>('GET', '/api/admin/model'), retry: false });
  if (q.error instanceof ApiError && (q.error.status === 401 || q.error.status === 403)) return <p role="alert" className="p-8 text-center text-lg">Not authorized</p>;
  if (q.error) throw q.error;
  if (!q.data) return <>{fallback}</>;
  return <ModelContext.Provider value={q.data}>{children}</ModelContext.Provider>;
}

export function useModel(): ModelInfo {
  const m = useContext(ModelContext);
  if (!m) throw new Error('useModel outside ModelProvider');
  return m;
}

export function useEntity(id: string): EntityInfo {
  const e = useModel().entities.find((x) => x.id === id);
  if (!e) throw new Error(`unknown entity ${id}`);
  return e;
}
