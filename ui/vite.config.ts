// Builds the web UI into dist/ui/, which the service serves at /ui/ (src/http/ui-routes.ts).
// Preact's JSX is compiled by Vite's own transformer (Oxc), so no plugin is needed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/ui/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The page is served under a Content-Security-Policy without 'unsafe-inline' and without
    // data: URLs: nothing may be inlined into index.html or turned into a data: URL.
    assetsInlineLimit: 0,
    // One script: there is nothing to preload, and the polyfill would only add bytes.
    modulePreload: false,
    sourcemap: false,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
