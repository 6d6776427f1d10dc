import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One project, two bundles (decision 0023): `--mode merchant` (served at /dashboard/) and
// `--mode console` (served at /console/ on the internal port). Relative base + hash routing:
// the server serves index.html and hashed assets, nothing else.
const root = fileURLToPath(new URL('.', import.meta.url));
const apps = ['merchant', 'console'] as const;

export default defineConfig(({ mode }) => {
  if (!(apps as readonly string[]).includes(mode))
    throw new Error(`vite --mode must be one of ${apps.join(', ')} (got ${mode})`);
  return {
    root,
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(root, '../../dist/apps/dashboard', mode),
      emptyOutDir: true,
      chunkSizeWarningLimit: 600,
      reportCompressedSize: true,
    },
  };
});
