import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';
import { AdminApp } from './app.js';
import { registerGenericAdmin } from './generic/index.js';
import { registerPluginVariants } from '../../plugins/web.js';
import { registerAdminViews } from './views.js';

registerGenericAdmin();
registerAdminViews();

// the modules' variants (the sign-in form, overrides of admin views) are loaded before the first render
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AdminApp />
    </StrictMode>,
  );
registerPluginVariants().then(render, render);
