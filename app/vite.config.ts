import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The reference dApp. `npm start` builds it into app/dist when the build is missing or older than
 * its sources (scripts/app-build.ts) and serves it at /app; the SDK is resolved from its TypeScript
 * sources (the `songmint-source` export condition).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  logLevel: 'warn',
  resolve: { conditions: ['songmint-source', 'browser', 'module', 'import', 'default'] },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1024 },
});
