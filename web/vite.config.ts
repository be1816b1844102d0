import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * One build, two apps with their own entries: the admin back office (/admin/) and the storefront's
 * client code. Shared libraries land in shared chunks; neither app loads the other's code.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      input: { admin: here('./admin/index.html'), storefront: here('./storefront/index.html') },
    },
  },
});
