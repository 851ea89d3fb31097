import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The app is served by the Go server at /app/ from the embedded dist/.
export default defineConfig({
  base: '/app/',
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
});
