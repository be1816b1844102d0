import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    // generous: a busy two-core machine runs child processes (codegen, servers) slowly; no test waits on a time
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['tests/helpers/global-setup.ts'],
    env: { NODE_ENV: 'test' },
    projects: [
      {
        extends: true,
        test: { name: 'server', include: ['tests/**/*.test.ts', 'engine/**/*.test.ts', 'runtime/**/*.test.ts', 'plugins/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'web', include: ['web/**/*.test.tsx', 'web/**/*.test.ts', 'plugins/**/*.test.tsx'], environment: 'happy-dom', setupFiles: ['web/test-setup.ts'] },
      },
    ],
  },
});
