import { useEffect, useRef, useState } from 'react';
import { PageView, type ShippedPage } from '../../../web/storefront/page.js';
import { listenToRevalidation } from './live.js';

/** the page data a server-rendered document carries (the JSON data block the storefront hydrates from) */
export function pageDataIn(html: string): ShippedPage | undefined {
  const m = /<script id="__PAGE__" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]) as ShippedPage;
  } catch {
    return undefined;
  }
}

/**
 * An open storefront page that keeps its data fresh: when the server says rows changed, it asks for the page
 * again (the server's page cache answers at once when nothing the page reads has changed) and shows the new
 * data if it differs. Renders exactly what PageView renders, so it hydrates the server's HTML.
 */
export function LivePage({ initial }: { initial: ShippedPage }) {
  const [data, setData] = useState(initial);
  const current = useRef(JSON.stringify(initial));
  useEffect(() => {
    let inFlight = false;
    let again = false;
    const refresh = async () => {
      if (inFlight) return void (again = true);
      inFlight = true;
      try {
        const res = await fetch(location.pathname + location.search, { headers: { accept: 'text/html', 'x-live-refresh': '1' }, credentials: 'same-origin', cache: 'no-store' });
        const fresh = res.ok ? pageDataIn(await res.text()) : undefined;
        const text = fresh && JSON.stringify(fresh);
        if (fresh && text !== current.current) {
          current.current = text!;
          setData(fresh);
        }
      } catch {
        /* offline: the next event tries again */
      } finally {
        inFlight = false;
        if (again) {
          again = false;
          void refresh();
        }
      }
    };
    return listenToRevalidation(() => void refresh());
  }, []);
  return <PageView data={data} />;
}
