import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const adminRoot = fileURLToPath(new URL('.', import.meta.url));

/** Long-lived vendor chunks: they change only when dependencies do, so browsers keep them cached. */
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 30 },
  { name: 'antd', test: /node_modules[\\/](antd|@ant-design|rc-[^\\/]+|@rc-component|dayjs)[\\/]/, priority: 20 },
  { name: 'refine', test: /node_modules[\\/](@refinedev|@tanstack)[\\/]/, priority: 10 },
];

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
