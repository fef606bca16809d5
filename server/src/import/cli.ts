import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/app-config';
import { ImportOptions, ImportRefused, runImport } from './importer';

const USAGE = `Usage: npm run import -- --from <DSN or SQLite file> [options]

Brings a one-api or new-api deployment over into this one (the database of SQL_DSN / SQLITE_PATH).
The source is only read.

  --from <dsn>        postgres://user:pass@host:5432/db, mysql://user:pass@host:3306/db,
                      user:pass@tcp(host:3306)/db, or sqlite:///path/one-api.db (or just the path)
  --dry-run           read everything and print what would be imported, changed and left out; write nothing
  --merge             allow a target that already holds rows (those are never overwritten)
  --with <list>       also import large history tables: logs, tasks (Midjourney and task records),
                      dashboard (hourly usage aggregates), or all
  --batch-size <n>    rows per batch (default 500)
  --no-progress       no progress bars
  -h, --help          this text

Exit status: 0 when every table reconciles, 1 when one does not, 2 when the import was refused or failed.`;

const GROUPS = ['logs', 'tasks', 'dashboard'] as const;

export function parseArgs(argv: string[]): ImportOptions | 'help' {
  const opts: ImportOptions = { from: '', with: [], progress: process.stderr.isTTY === true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '-h':
      case '--help':
        return 'help';
      case '--from':
        opts.from = value();
        break;
      case '--dry-run':
        opts.dryRun = true;
        break;
      case '--merge':
        opts.merge = true;
        break;
      case '--no-progress':
        opts.progress = false;
        break;
      case '--batch-size': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1 || n > 5000)
          throw new Error('--batch-size must be a whole number from 1 to 5000');
        opts.batchSize = n;
        break;
      }
      case '--with': {
        for (const g of value()
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean)) {
          if (g === 'all') opts.with!.push(...GROUPS);
          else if ((GROUPS as readonly string[]).includes(g)) opts.with!.push(g as (typeof GROUPS)[number]);
          else throw new Error(`--with: unknown table group "${g}" (logs, tasks, dashboard, all)`);
        }
        break;
      }
      default:
        throw new Error(`unknown argument ${arg}`);
    }
  }
  if (!opts.from) throw new Error('--from is required');
  opts.with = [...new Set(opts.with)];
  return opts;
}

async function main(): Promise<number> {
  let opts: ImportOptions | 'help';
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (opts === 'help') {
    console.log(USAGE);
    return 0;
  }
  try {
    const config = loadConfig(process.env, { quiet: true });
    const result = await runImport(config, opts);
    return result.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof ImportRefused || e instanceof ConfigError) console.error(`Import refused: ${e.message}`);
    else console.error(`Import failed: ${(e as Error).message}`);
    return 2;
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(2);
    },
  );
}
