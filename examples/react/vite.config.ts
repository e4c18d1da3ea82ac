import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The React example: `npx vite --config examples/react/vite.config.ts` against `npm start`
 * (VITE_SONGMINT_API_URL and VITE_SONGMINT_RPC_URL name another stack). Vite compiles the JSX
 * itself (automatic runtime, from tsconfig.json): no plugin. The Songmint packages resolve from
 * their TypeScript sources here (the `songmint-source` condition); an app installs them from npm.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  resolve: { conditions: ['songmint-source', 'browser', 'module', 'import', 'default'] },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1024 },
});
