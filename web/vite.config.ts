import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { staticThemeContext } from './static-theme-context.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  // The Amplify theme context's default built here, not computed by every visitor (static-theme-context.ts).
  plugins: [react(), staticThemeContext()],
  resolve: {
    alias: [
      { find: '@domain', replacement: here('../functions/domain') },
      { find: '@', replacement: here('./src') },
    ],
  },
  // Module workers (the payment list's Excel worker): their chunks may share code with the page.
  worker: { format: 'es' },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    // No source maps on the public site.
    sourcemap: false,
  },
});
