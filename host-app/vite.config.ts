import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { consoleKitSourceAliases } from './console-kit-source.ts';
import { precompress } from './precompress.ts';

// Paths the Gatehouse server answers itself (contract.md); everything else is the SPA. Whole path
// segments only, so a console route such as /midjourney is never sent to the server.
const SERVER_PATHS = '^/(api|v1|v1beta|pg|mj|suno)(/|$)';
const SERVER = process.env.GATEHOUSE_SERVER ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    alias: consoleKitSourceAliases,
    // One copy of each even if a workspace ever nests its own.
    dedupe: [
      'react',
      'react-dom',
      'react-router',
      'react-redux',
      '@reduxjs/toolkit',
      'i18next',
      'react-i18next',
      '@emotion/react',
      '@mui/material',
    ],
  },
  server: {
    proxy: { [SERVER_PATHS]: { target: SERVER, changeOrigin: true } },
  },
  build: {
    // The server serves this folder as static files with SPA fallback.
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      // The console itself, and the embedding example (one panel inside a foreign page, docs/embedding.md).
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        'embed-example': fileURLToPath(new URL('./embed-example.html', import.meta.url)),
      },
      output: {
        // Libraries change far less often than the console: separate files stay cached across releases.
        // Pages other than the shell, home and login are loaded on demand (each feature.ts of the kit),
        // so the groups are entries-aware: a library module lands in a chunk shared only by the pages
        // that use it, and the first screen does not download the charts, date pickers or MUI
        // components only the admin pages need.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 5,
            },
            {
              name: 'mui',
              test: /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group)[\\/]/,
              priority: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 0,
            },
            {
              name: 'vendor',
              test: /node_modules[\\/]/,
              priority: 1,
              entriesAware: true,
              entriesAwareMergeThreshold: 0,
            },
          ],
        },
      },
    },
  },
});
