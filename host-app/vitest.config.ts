import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { consoleKitSourceAliases } from './console-kit-source.ts';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: consoleKitSourceAliases },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.spec.{ts,tsx}'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
