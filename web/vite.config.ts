import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * One build, two apps with their own entries: the admin back office (/admin/) and the storefront's
 * client code (the server renders storefront pages and links this entry into them). Shared libraries land in shared chunks; neither app loads the other's code.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    reportCompressedSize: true,
    // the server reads it to link the storefront's script and styles into rendered pages
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      input: { admin: here('./admin/index.html'), storefront: here('./storefront/main.tsx') },
      // every file of variants a module declares lazily (web/registry's registerLazy) stays a dynamic entry of its own,
      // named after its source in the manifest, which the server reads to preload a page's chunks; by default
      // Rolldown merges such a file into a shared chunk when other chunks import it too (ecommerce's parts.tsx)
      experimental: { chunkOptimization: { mergeCommonChunks: false } },
    },
  },
});
