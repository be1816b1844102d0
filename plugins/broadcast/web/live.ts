/** what a browser hears of a committed write: which entity's rows changed (never their data) */
export interface Revalidation {
  module: string;
  route: string;
  operation: 'create' | 'update' | 'delete';
  ids: string[];
}

/** spec §9: revalidation events take effect after 1000 ms (writes in a burst become one refresh) */
export const REVALIDATION_DELAY_MS = 1000;
export const EVENTS_URL = '/api/broadcast/events';

/**
 * Listens to the server's revalidation stream (one EventSource per tab, reconnecting by itself) and hands the
 * events of each burst to `onBurst` once the burst has been quiet for REVALIDATION_DELAY_MS. Answers the
 * function that stops listening. Does nothing where EventSource does not exist (server rendering).
 * @example const stop = listenToRevalidation((events) => refresh(events));
 */
export function listenToRevalidation(onBurst: (events: Revalidation[]) => void, delayMs = REVALIDATION_DELAY_MS): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  const source = new EventSource(EVENTS_URL);
  let pending: Revalidation[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  source.addEventListener('revalidate', (message) => {
    try {
      pending.push(JSON.parse((message as MessageEvent<string>).data) as Revalidation);
    } catch {
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => {
      const burst = pending;
      pending = [];
      onBurst(burst);
    }, delayMs);
  });
  return () => {
    clearTimeout(timer);
    source.close();
  };
}
