import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';
import { AdminApp } from './app.js';
import { registerGenericAdmin } from './generic/index.js';
import { registerPluginVariants } from '../../plugins/web.js';

registerGenericAdmin();
registerPluginVariants();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AdminApp />
  </StrictMode>,
);
