import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  plugins: [react()],
  resolve: {
    alias: {
      '@domain': here('../functions/domain'),
      '@': here('./src'),
    },
  },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    sourcemap: true,
  },
});
