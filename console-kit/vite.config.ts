import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import packageJson from './package.json' with { type: 'json' };

const src = (path: string): string => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

// Everything the host page provides once: never bundled, so portal and console share one React, one MUI.
const peers = Object.keys(packageJson.peerDependencies);
const isPeer = (id: string): boolean => peers.some((peer) => id === peer || id.startsWith(`${peer}/`));

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The consuming app minifies; readable output keeps portal stack traces and audits sane.
    minify: false,
    target: 'es2022',
    lib: {
      // One entry per subpath export of package.json.
      entry: {
        index: src('index.ts'),
        setup: src('features/setup/index.ts'),
        auth: src('features/auth/index.ts'),
        shell: src('shell/index.ts'),
        features: src('console-features.ts'),
        register: src('features/register/index.ts'),
        reset: src('features/reset/index.ts'),
        oauth: src('features/oauth/index.ts'),
        home: src('features/home/index.ts'),
        about: src('features/about/index.ts'),
        notice: src('features/notice/index.ts'),
        personal: src('features/personal/index.ts'),
        security: src('features/security/index.ts'),
        users: src('features/users/index.ts'),
        settings: src('features/settings/index.ts'),
        channels: src('features/channels/index.ts'),
        pricing: src('features/pricing/index.ts'),
        playground: src('features/playground/index.ts'),
        tokens: src('features/tokens/index.ts'),
        redemptions: src('features/redemptions/index.ts'),
        wallet: src('features/wallet/index.ts'),
        chat: src('features/chat/index.ts'),
        logs: src('features/logs/index.ts'),
        'drawing-log': src('features/drawing-log/index.ts'),
        'task-log': src('features/task-log/index.ts'),
        dashboard: src('features/dashboard/index.ts'),
        reports: src('features/reports/index.ts'),
      },
      formats: ['es'],
    },
    rolldownOptions: {
      external: isPeer,
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
});
