import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function readVersion(): string {
  for (const up of ['../..', '../../..']) {
    try {
      const pkg = JSON.parse(readFileSync(join(__dirname, up, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'gatehouse' && pkg.version) return pkg.version;
    } catch {
      // try the next level: the compiled file sits one folder deeper than the source
    }
  }
  return '0.0.0';
}

/** The package version, reported by /api/status. */
export const version = readVersion();
export const startTime = Math.floor(Date.now() / 1000);
