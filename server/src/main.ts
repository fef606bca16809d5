import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp, shutdownGracefully } from './app.factory';

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
  const logger = new Logger('Gatehouse');
  logger.log(
    `listening on http://${config.host}:${config.port} (${config.database.type}, ${config.nodeType})`,
  );
  const timeoutMs = config.shutdownTimeoutSeconds * 1000;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.log(
      `${signal}: finishing the requests in flight (at most ${config.shutdownTimeoutSeconds} s), then stopping`,
    );
    shutdownGracefully(app, timeoutMs).then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void bootstrap();
