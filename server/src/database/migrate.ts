import { Logger } from '@nestjs/common';
import { loadConfig } from '../config/app-config';
import { createDataSource } from './data-source';

/** `npm run migration:run`: applies pending migrations to the configured database and exits. */
async function main(): Promise<void> {
  const logger = new Logger('Migrate');
  const config = loadConfig();
  const ds = createDataSource(config.database);
  await ds.initialize();
  const applied = await ds.runMigrations({ transaction: 'each' });
  logger.log(applied.length ? `applied: ${applied.map((m) => m.name).join(', ')}` : 'nothing to apply');
  await ds.destroy();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
