import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster, type ToasterProps } from 'sonner';
import { FLOATING_SPACE_PX } from './floating.js';
import { translate } from './words.js';

/**
 * Where toasts appear: at the bottom, never over the header's language links and account button (at the top they
 * covered them for seconds). From 600 px at the left, clear of the floating cart button and of the cart drawer
 * that opens on the right; on a phone (sonner's full-width layout) above the floating cart button.
 */
const TOASTER: ToasterProps = { position: 'bottom-left', mobileOffset: { bottom: FLOATING_SPACE_PX } };

/** what every storefront page is wrapped in, on the server and in the browser alike; `language` is the page's */
export function StorefrontShell({ children, language = 'en' }: { children: ReactNode; language?: string }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, gcTime: 86_400_000, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: 1 } } }),
  );
  return (
    <QueryClientProvider client={client}>
      {children}
      {/* the region's name in the page's language (sonner's own is 'Notifications alt+T') */}
      <Toaster richColors {...TOASTER} containerAriaLabel={translate('storefront.notifications', language)} />
    </QueryClientProvider>
  );
}
