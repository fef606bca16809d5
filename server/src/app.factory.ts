import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { DataSource } from 'typeorm';
import { serializeSqliteTransactions } from './database/sqlite-serial';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { ConsoleLogger, HttpStatus, LogLevel, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { RealtimeRelay, RELAY_ROUTES, RelayRoutes, RelayService } from './modules/relay';
import { MetricsService } from './modules/metrics';
import { metricsRoutes } from './modules/metrics';
import { AppError } from './common/app-error';
import { applyCors } from './common/http/cors';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { buildOpenApiDocument } from './common/http/openapi';
import { jsonTooDeep, MAX_JSON_DEPTH } from './common/http/json-depth';
import { registerSecurityHeaders } from './common/http/security-headers';
import { RequestDeadline } from './common/http/request-deadline';
import { newRequestId, REQUEST_ID_HEADER } from './common/http/request-id';
import { pickLang } from './common/i18n/messages';
import type { AppConfig } from './config/app-config';
import { version } from './version';

/**
 * Files under `assets/` carry a content hash in their names (Vite's output): a changed file is a new
 * name, so they are cached for a year without revalidation. Everything else (index.html, the favicon)
 * keeps its name across releases and is revalidated on every use.
 */
export function staticCacheControl(root: string, path: string): string {
  const rel = relative(root, path).split(sep);
  return rel.length > 1 && rel[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export function createLogger(config: AppConfig): ConsoleLogger {
  return new ConsoleLogger({
    json: config.logFormat === 'json',
    colors: config.logFormat !== 'json' && process.stdout.isTTY,
    logLevels: LEVELS.slice(0, LEVELS.indexOf(config.logLevel === 'log' ? 'log' : config.logLevel) + 1),
  });
}

/** Builds the whole application (used by main.ts and by the tests, which listen on a random port). */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: newRequestId,
    requestIdHeader: false,
    logger: false,
    // No Nest middleware is used: skipping @fastify/middie spares every request (model traffic above
    // all) a hook that would run for nothing.
    skipMiddie: true,
  });
  const logger = createLogger(config);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger,
    abortOnError: false,
  });
  serializeSqliteTransactions(app.get(DataSource));
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (req, reply, done) => {
    req.lang = pickLang(req.headers['accept-language']);
    void reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
  // The API answers 200 for success (Nest's default for POST would be 201).
  fastify.addHook('onSend', (_req, reply, payload, done) => {
    if (reply.statusCode === 201) void reply.code(200);
    done(null, payload);
  });
  const metrics = app.get(MetricsService);
  // Every request Fastify answers, labelled by its route pattern (the relay's raw fast path records its own).
  if (metrics.enabled) fastify.addHook('onResponse', metrics.onResponse);
  if (config.logLevel === 'debug' || config.logLevel === 'verbose')
    fastify.addHook('onResponse', (req, reply, done) => {
      logger.debug(
        `${req.method} ${req.url.split('?')[0]} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms [${req.id}]`,
        'Http',
      );
      done();
    });

  await registerSecurityHeaders(fastify, config.frameAncestors);
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  await app.register(fastifyStatic, {
    root: existsSync(config.staticDir) ? config.staticDir : process.cwd(),
    prefix: '/',
    wildcard: false,
    serve: existsSync(config.staticDir),
    index: false,
    // The build writes `.br` and `.gz` beside each compressible file (host-app/precompress.ts): sent as
    // they are by `Accept-Encoding`, with `Vary: Accept-Encoding`.
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) =>
      void reply.header('cache-control', staticCacheControl(config.staticDir, path)),
  });

  app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true, forbidUnknownValues: false }));
  app.useGlobalFilters(new ApiExceptionFilter(config.staticDir));

  SwaggerModule.setup('api/docs', app, () => buildOpenApiDocument(app, version, RELAY_ROUTES), {
    jsonDocumentUrl: 'api/docs-json',
  });

  const relay = app.get(RelayRoutes);
  await fastify.register(relay.plugin);
  await fastify.register(metricsRoutes(metrics));
  // CORS for the key-authenticated routes first (see common/http/cors.ts), then model traffic takes the
  // raw fast path ahead of Fastify's request handler (see RelayRoutes.tryRaw).
  const server = app.getHttpServer();
  const inFlight = new InFlight();
  const fastifyHandlers = server.listeners('request') as Array<
    (req: IncomingMessage, res: ServerResponse) => void
  >;
  server.removeAllListeners('request');
  const deadline = new RequestDeadline(config.clientBodyTimeoutSeconds * 1000);
  server.on('close', () => deadline.stop());
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    deadline.track(req, res);
    if (applyCors(req, res)) return;
    if (!relay.tryRaw(req, res)) for (const handler of fastifyHandlers) handler(req, res);
  });
  app.get(RealtimeRelay).attach(app.getHttpServer());
  inFlights.set(app, inFlight);
  await app.init();
  // The management API's JSON bodies: Fastify's own parser (prototype poisoning refused), behind a bound
  // on nesting depth, so that no recursive walk after it (validation, logging) can exhaust the stack.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: config.bodyLimitBytes },
    (req, body: string, done) => {
      // An empty body with a JSON content type (axios and several SDKs send the header on every call)
      // is no body at all; a non-empty invalid one still gets the JSON error.
      if (!body.trim()) return done(null, undefined);
      if (jsonTooDeep(body))
        return done(
          new AppError('json_too_deep', { max: MAX_JSON_DEPTH }, HttpStatus.BAD_REQUEST),
          undefined,
        );
      void parseJson(req, body, done);
    },
  );
  await fastify.ready();
  return app;
}

/** The HTTP requests a server is answering, so a shutdown can let them finish. */
class InFlight {
  private open = 0;
  private idle: Array<() => void> = [];
  private readonly done = (): void => {
    if (--this.open === 0) for (const resolve of this.idle.splice(0)) resolve();
  };

  add(res: ServerResponse): void {
    this.open++;
    // A response closes once: a plain listener shared by all (`once` wraps it anew for every request).
    res.on('close', this.done);
  }

  get count(): number {
    return this.open;
  }

  /** Resolves when no request is open, or after `ms` (whichever comes first). */
  async drain(ms: number): Promise<void> {
    if (this.open === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.idle.push(resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }
}

const inFlights = new WeakMap<NestFastifyApplication, InFlight>();

/**
 * Stops the server gracefully: no new connections, requests in flight (streams included) finish for
 * at most `timeoutMs`, then the application closes (the ledger writes every queued charge and log
 * before the database connection goes).
 */
export async function shutdownGracefully(app: NestFastifyApplication, timeoutMs: number): Promise<void> {
  const server = app.getHttpServer();
  server.close(() => undefined);
  server.closeIdleConnections();
  await inFlights.get(app)?.drain(timeoutMs);
  server.closeAllConnections();
  // Calls cut just now settle what they delivered before the ledger's last flush and the database close.
  await app.get(RelayService).settled(5000);
  await app.close();
}
