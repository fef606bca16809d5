import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './app.factory';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  new Logger('Gatehouse').log(`listening on http://${config.host}:${config.port} (${config.database.type}, ${config.nodeType})`);
}

void bootstrap();
