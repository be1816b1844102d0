import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';

/** rendering on the server: fixed for the life of the process, so a component takes the same branch on every render */
export const ON_SERVER = typeof window === 'undefined';

/** what a browser-only query answers while the server renders: what useQuery answers there, before any fetch */
export interface BrowserQuery<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => Promise<unknown>;
}

const noRefetch = () => Promise.resolve();

/**
 * useQuery for a storefront query that only the browser runs (the server never fetches, and its HTML holds no
 * caller's data): on the server it answers the query's state before a fetch (its initialData, if any) without a
 * query observer per widget per render; in the browser it is useQuery. The first browser render sees the same
 * state, so hydration matches.
 * @example const query = useBrowserQuery({ queryKey: ['blog', 'latest'], queryFn, initialData: linked });
 */
export function useBrowserQuery<T>(options: UseQueryOptions<T, Error, T, QueryKey> & { initialData?: T }): BrowserQuery<T> {
  if (ON_SERVER) return { data: options.initialData, isPending: options.initialData === undefined, isError: false, error: null, refetch: noRefetch };
  // eslint-disable-next-line react-hooks/rules-of-hooks -- ON_SERVER never changes within a process
  return useQuery(options);
}
