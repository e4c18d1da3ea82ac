import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The hook test page (test/react/hooks.test.ts builds it for a running stack). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  resolve: { conditions: ['songmint-source', 'browser', 'module', 'import', 'default'] },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2048 },
});
