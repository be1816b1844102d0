import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { listenToRevalidation } from '../../plugins/broadcast/web/live.js';

/**
 * The admin's live data: every committed write the server tells of (one Server-Sent Events stream) invalidates
 * the queries of its entity — the `[module, route]` keys every table, form and select uses — a second after the
 * burst, so open tables and forms show other people's changes without a reload.
 */
export function useLiveInvalidation() {
  const qc = useQueryClient();
  useEffect(
    () =>
      listenToRevalidation((events) => {
        const keys = new Map(events.map((e) => [`${e.module}/${e.route}`, [e.module, e.route]]));
        for (const queryKey of keys.values()) void qc.invalidateQueries({ queryKey });
        // the dashboard's charts read metrics and orders
        void qc.invalidateQueries({ queryKey: ['dashboard'] });
      }),
    [qc],
  );
}
