import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster, type ToasterProps } from 'sonner';
import { FLOATING_SPACE_PX, useFloatingShown } from './floating.js';
import { translate } from './words.js';

/** sonner's own breakpoint: below it toasts take the whole width, placed by `mobileOffset` */
const PHONE = '(max-width: 600px)';
/** an open modal dialog (Radix portals it into the body): the cart drawer, a form's dialog */
const OPEN_DIALOG = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';
/**
 * Over a dialog on a phone (the cart drawer takes the whole screen there), toasts sit at the top, on the dialog's title
 * bar between its ends: clear of its close button at the right and of the controls below the bar. At the bottom they
 * covered the drawer's checkout form.
 */
const OVER_DIALOG: ToasterProps = { position: 'top-center', mobileOffset: { top: 4, left: 64, right: 64 } };

const watchDialogs = (changed: () => void) => {
  const dialogs = new MutationObserver(changed);
  dialogs.observe(document.body, { childList: true });
  const phone = window.matchMedia?.(PHONE);
  phone?.addEventListener?.('change', changed);
  return () => {
    dialogs.disconnect();
    phone?.removeEventListener?.('change', changed);
  };
};
const dialogOnPhone = () => !!window.matchMedia?.(PHONE).matches && !!document.querySelector(OPEN_DIALOG);

/**
 * Where toasts appear: at the bottom, never over the header's language links and account button (at the top they
 * covered them for seconds). From 600 px at the left, clear of the cart drawer that opens on the right; on a phone
 * (sonner's full-width layout) above a floating cart button when one floats, and on the title bar of an open dialog.
 */
function useToasterPlace(): ToasterProps {
  const overDialog = useSyncExternalStore(watchDialogs, dialogOnPhone, () => false);
  const floats = useFloatingShown();
  if (overDialog) return OVER_DIALOG;
  return { position: 'bottom-left', ...(floats && { mobileOffset: { bottom: FLOATING_SPACE_PX } }) };
}

function StorefrontToaster({ language }: { language: string }) {
  // the region's name in the page's language (sonner's own is 'Notifications alt+T')
  return <Toaster richColors {...useToasterPlace()} containerAriaLabel={translate('storefront.notifications', language)} />;
}

/** what every storefront page is wrapped in, on the server and in the browser alike; `language` is the page's */
export function StorefrontShell({ children, language = 'en' }: { children: ReactNode; language?: string }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 60_000, gcTime: 86_400_000, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: 1 },
          // a shopper's action (add to cart, a quantity, checkout) is tried at once even when the browser says it is
          // offline: its failure is told ('The server could not be reached…') and its button comes back, instead of
          // waiting silently, 'Adding...', for a connection to return
          mutations: { networkMode: 'always' },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      {children}
      <StorefrontToaster language={language} />
    </QueryClientProvider>
  );
}
