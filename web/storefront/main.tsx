import { hydrateRoot } from 'react-dom/client';
import '../styles.css';
import type { PageData } from './page.js';
import { StorefrontShell } from './shell.js';
import { registerPluginVariants } from '../../plugins/web.js';
import { LivePage } from '../../plugins/broadcast/web/live-page.js';

registerPluginVariants();

const data = JSON.parse(document.getElementById('__PAGE__')!.textContent!) as PageData;
hydrateRoot(
  document.getElementById('root')!,
  <StorefrontShell>
    <LivePage initial={data} />
  </StorefrontShell>,
);
