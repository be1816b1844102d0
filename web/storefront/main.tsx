import { hydrateRoot } from 'react-dom/client';
import '../styles.css';
import { PageView, type PageData } from './page.js';
import { StorefrontShell } from './shell.js';
import { registerPluginVariants } from '../../plugins/web.js';

registerPluginVariants();

const data = JSON.parse(document.getElementById('__PAGE__')!.textContent!) as PageData;
hydrateRoot(
  document.getElementById('root')!,
  <StorefrontShell>
    <PageView data={data} />
  </StorefrontShell>,
);
