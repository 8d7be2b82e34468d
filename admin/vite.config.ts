import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const adminRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * React is a long-lived vendor chunk: it changes only when the dependency does, so browsers keep it
 * cached. antd and Refine are left to automatic splitting on purpose: one antd chunk would put every
 * component any lazy screen uses into the first load (1.9 MB instead of 1.36 MB, measured).
 */
const vendorGroups = [{ name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 30 }];

export default defineConfig({
  root: adminRoot,
  base: '/admin/',
  plugins: [react()],
  logLevel: 'warn',
  // Production React and antd even when the build runs inside a test process (NODE_ENV=test).
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: { codeSplitting: { groups: vendorGroups } },
    },
  },
});
