import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

const kitSource = (path: string): string =>
  fileURLToPath(new URL(`../console-kit/src/${path}`, import.meta.url));

/**
 * The host compiles the kit from source, so `npm run build --workspace host-app` works without a
 * prebuilt console-kit/dist and one bundler pass optimises both. Every feature subpath
 * (`@gatehouse/console-kit/<name>`) is `src/features/<name>/index.ts`, as in the kit's exports map;
 * the shell and the feature list (`/features`) are the subpaths outside features. Keep in step with "paths" in tsconfig.json.
 */
export const consoleKitSourceAliases: Alias[] = [
  { find: /^@gatehouse\/console-kit\/shell$/, replacement: kitSource('shell/index.ts') },
  { find: /^@gatehouse\/console-kit\/features$/, replacement: kitSource('console-features.ts') },
  { find: /^@gatehouse\/console-kit\/([a-z][a-z0-9-]*)$/, replacement: kitSource('features/$1/index.ts') },
  { find: /^@gatehouse\/console-kit$/, replacement: kitSource('index.ts') },
];
