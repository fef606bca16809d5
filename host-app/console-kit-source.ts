import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

const kitSource = (path: string): string =>
  fileURLToPath(new URL(`../console-kit/src/${path}`, import.meta.url));

/**
 * The host compiles the kit from source, so `npm run build --workspace host-app` works without a
 * prebuilt console-kit/dist and one bundler pass optimises both. Keep in step with the kit's exports
 * map and with "paths" in tsconfig.json.
 */
export const consoleKitSourceAliases: Alias[] = [
  { find: /^@gatehouse\/console-kit\/setup$/, replacement: kitSource('features/setup/index.ts') },
  { find: /^@gatehouse\/console-kit\/auth$/, replacement: kitSource('features/auth/index.ts') },
  { find: /^@gatehouse\/console-kit\/shell$/, replacement: kitSource('shell/index.ts') },
  { find: /^@gatehouse\/console-kit$/, replacement: kitSource('index.ts') },
];
