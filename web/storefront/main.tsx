import { hydrateRoot } from 'react-dom/client';
import '../styles.css';
import type { PageData } from './page.js';
import { StorefrontShell } from './shell.js';
import { declarePluginVariants } from '../../plugins/web.js';
import { loadChunks } from '../registry.js';
import { LivePage } from '../../plugins/broadcast/web/live-page.js';

declarePluginVariants();

const data = JSON.parse(document.getElementById('__PAGE__')!.textContent!) as PageData;
const hydrate = () =>
  hydrateRoot(
    document.getElementById('root')!,
    <StorefrontShell language={data.context.language}>
      <LivePage initial={data} />
    </StorefrontShell>,
  );
// the code of the variants this page shows (the chunks the server noted while rendering, which the head preloads),
// loaded before hydrating so that the first render here matches the server's HTML; a failed load still hydrates
// (those widgets then load again, and show their error boundary if they cannot)
loadChunks(data.chunks ?? []).then(hydrate, hydrate);
