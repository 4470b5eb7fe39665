import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway serves dist/ at / in all-in-one mode; in dev the API is proxied to it.
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
  },
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
});
