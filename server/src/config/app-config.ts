import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvDto } from './env.dto';
import { parseFrameAncestors } from './frame-ancestors';
import { DatabaseConfig, parseSqlDsn } from './sql-dsn';

/**
 * The process configuration, parsed and validated once at boot from the environment.
 * Runtime settings an operator edits (prices, sign-in switches...) live in the `options` table instead.
 */
export interface AppConfig {
  env: 'production' | 'development' | 'test';
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  redisUrl: string | null;
  /** Prefix of every Redis key and channel (lets several deployments share one Redis). */
  redisPrefix: string;
  sessionSecret: string;
  cryptoSecret: string;
  nodeType: 'master' | 'slave';
  nodeName: string;
  syncFrequencySeconds: number;
  /** Minutes between automatic tests of every channel (master node); 0 = off. */
  channelTestFrequencyMinutes: number;
  /** Streams: longest quiet spell between two upstream events (a trickle of bytes does not count). */
  streamingTimeoutSeconds: number;
  /** Streams: longest wait for the first event; 0 = STREAMING_TIMEOUT. */
  firstByteTimeoutSeconds: number;
  /** Headers of every upstream answer, and the whole of a non-stream one (0 = none). */
  relayTimeoutSeconds: number;
  /** Time a client has to send its whole request (headers and body); 0 = none. */
  clientBodyTimeoutSeconds: number;
  /** On SIGTERM/SIGINT: how long requests in flight may take to finish before the process stops anyway. */
  shutdownTimeoutSeconds: number;
  trustedProxies: string[];
  staticDir: string;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  logFormat: 'json' | 'text';
  bodyLimitBytes: number;
  bcryptCost: number;
  loginRateLimit: { limit: number; ttlSeconds: number };
  turnstileVerifyUrl: string;
  versionCheckRepo: string;
  /** When true the operator allows outbound calls (webhooks, OIDC discovery) to private addresses. */
  allowPrivateOutbound: boolean;
  /** Extra certificate authorities (PEM) trusted for outbound HTTPS: webhooks, OIDC, channel account calls. */
  outboundCa: string | null;
  /** Background polling of unfinished Midjourney/Suno tasks on the master node; 0 = off. */
  taskPollIntervalMs: number;
  /** An unfinished task this old (since submission) fails and is refunded. */
  taskTimeoutMs: number;
  /** Bases of the sign-in providers with fixed addresses (GitHub Enterprise, or local test providers). */
  oauthUrls: { githubOAuth: string; githubApi: string; linuxdo: string };
  /**
   * Prometheus `/metrics`: off (404) unless METRICS_TOKEN is set (then `Authorization: Bearer <token>` is
   * required) or METRICS_ENABLED=true (open without a token).
   */
  metrics: { enabled: boolean; token: string | null };
  /** Sources besides the console's own origin allowed to frame its pages (`'none'`: nobody, not even itself). */
  frameAncestors: string[];
}

export class ConfigError extends Error {}

function resolvePath(base: string, p: string): string {
  return isAbsolute(p) ? p : resolve(base, p);
}

/**
 * Reads a secret from the environment; when absent, reuses (or creates) one persisted in the data folder
 * so sessions survive restarts. Several nodes must share the value, hence the warning.
 */
function persistedSecret(dataDir: string, file: string, envName: string, logger: Logger | null): string {
  const path = join(dataDir, file);
  if (existsSync(path)) {
    const v = readFileSync(path, 'utf8').trim();
    if (v.length >= 16) return v;
  }
  const secret = randomBytes(32).toString('hex');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, secret + '\n', { mode: 0o600 });
  logger?.warn(
    `${envName} is not set: generated one and stored it in ${path}. Set ${envName} explicitly when running several nodes.`,
  );
  return secret;
}

export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  opts: { cwd?: string; quiet?: boolean } = {},
): AppConfig {
  const cwd = opts.cwd ?? process.cwd();
  const logger = opts.quiet ? null : new Logger('Config');
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') raw[k] = v;
  const dto = plainToInstance(EnvDto, raw, { enableImplicitConversion: false });
  const errors = validateSync(dto, { whitelist: false, forbidUnknownValues: false });
  if (errors.length) {
    const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid environment:\n  ${lines.join('\n  ')}`);
  }
  const env = (dto.NODE_ENV ?? 'production') as AppConfig['env'];
  const dataDir = resolvePath(cwd, dto.DATA_DIR ?? 'data');
  let database: DatabaseConfig;
  try {
    database = parseSqlDsn(
      dto.SQL_DSN ?? '',
      resolvePath(cwd, dto.SQLITE_PATH ?? join(dataDir, 'gatehouse.db')),
    );
  } catch (e) {
    throw new ConfigError(`Invalid environment:\n  SQL_DSN: ${(e as Error).message}`);
  }
  const sessionSecret =
    dto.SESSION_SECRET ?? persistedSecret(dataDir, '.session_secret', 'SESSION_SECRET', logger);
  const cryptoSecret = dto.CRYPTO_SECRET ?? sessionSecret;
  const int = (v: string | undefined, d: number) => (v === undefined ? d : Number.parseInt(v, 10));
  const frameAncestors = parseFrameAncestors(dto.CSP_FRAME_ANCESTORS);
  if (frameAncestors.invalid.length)
    throw new ConfigError(
      `Invalid environment:\n  CSP_FRAME_ANCESTORS: not an http(s) origin or none: ${frameAncestors.invalid.join(', ')}`,
    );
  if (dto.METRICS_ENABLED === 'true' && !dto.METRICS_TOKEN)
    logger?.warn(
      'METRICS_ENABLED=true without METRICS_TOKEN: /metrics is open to anyone who can reach the port.',
    );
  return {
    env,
    port: int(dto.PORT, 3000),
    host: dto.HOST ?? '0.0.0.0',
    dataDir,
    database,
    redisUrl: dto.REDIS_CONN_STRING ?? null,
    redisPrefix: dto.REDIS_PREFIX ?? 'gatehouse',
    sessionSecret,
    cryptoSecret,
    nodeType: (dto.NODE_TYPE ?? 'master') as AppConfig['nodeType'],
    nodeName: dto.NODE_NAME ?? `node-${process.pid}`,
    syncFrequencySeconds: int(dto.SYNC_FREQUENCY, 60),
    channelTestFrequencyMinutes: int(dto.CHANNEL_TEST_FREQUENCY, 0),
    streamingTimeoutSeconds: int(dto.STREAMING_TIMEOUT, 300),
    relayTimeoutSeconds: int(dto.RELAY_TIMEOUT, 0),
    firstByteTimeoutSeconds: int(dto.STREAMING_FIRST_BYTE_TIMEOUT, 0),
    clientBodyTimeoutSeconds: int(dto.CLIENT_BODY_TIMEOUT, 120),
    shutdownTimeoutSeconds: int(dto.SHUTDOWN_TIMEOUT, 30),
    trustedProxies: (dto.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    staticDir: resolvePath(cwd, dto.STATIC_DIR ?? 'host-app/dist'),
    logLevel: (dto.LOG_LEVEL ?? (env === 'test' ? 'warn' : 'log')) as AppConfig['logLevel'],
    logFormat: (dto.LOG_FORMAT ?? (env === 'production' ? 'json' : 'text')) as AppConfig['logFormat'],
    bodyLimitBytes: int(dto.BODY_LIMIT_MB, 32) * 1024 * 1024,
    bcryptCost: int(dto.BCRYPT_COST, 10),
    loginRateLimit: {
      limit: int(dto.LOGIN_RATE_LIMIT, 10),
      ttlSeconds: int(dto.LOGIN_RATE_LIMIT_WINDOW, 60),
    },
    turnstileVerifyUrl:
      dto.TURNSTILE_VERIFY_URL ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    // Off unless the operator names the repository whose releases to compare with.
    versionCheckRepo: dto.VERSION_CHECK_REPO ?? '',
    allowPrivateOutbound: dto.ALLOW_PRIVATE_OUTBOUND === 'true',
    outboundCa: dto.OUTBOUND_CA_FILE ? readCaFile(resolvePath(cwd, dto.OUTBOUND_CA_FILE)) : null,
    taskPollIntervalMs: Math.round(
      secondsIn(dto.TASK_POLL_INTERVAL, 15, 0.05, 86_400, 'TASK_POLL_INTERVAL') * 1000,
    ),
    taskTimeoutMs: (secondsIn(dto.TASK_TIMEOUT, 3600, 1, 30 * 86_400, 'TASK_TIMEOUT') || 3600) * 1000,
    oauthUrls: {
      githubOAuth: baseUrl(dto.GITHUB_OAUTH_URL, 'https://github.com'),
      githubApi: baseUrl(dto.GITHUB_API_URL, 'https://api.github.com'),
      linuxdo: baseUrl(dto.LINUXDO_OAUTH_URL, 'https://connect.linux.do'),
    },
    // Off unless asked for: a scrape token turns it on (protected); METRICS_ENABLED=true without a
    // token opens it to whoever reaches the port (the operator's explicit choice).
    metrics: {
      enabled: dto.METRICS_ENABLED === 'true' || (dto.METRICS_ENABLED !== 'false' && !!dto.METRICS_TOKEN),
      token: dto.METRICS_TOKEN ?? null,
    },
    frameAncestors: frameAncestors.sources,
  };
}

function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(
      `Invalid environment:\n  OUTBOUND_CA_FILE: cannot read ${path} (${(e as Error).message})`,
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError(`Invalid environment:\n  OUTBOUND_CA_FILE: ${path} holds no PEM certificate`);
  return pem;
}

/** Seconds from the environment: the default when unset, else 0 or a value within [min, max]. */
function secondsIn(raw: string | undefined, dflt: number, min: number, max: number, name: string): number {
  if (raw === undefined || raw.trim() === '') return dflt;
  const v = Number(raw);
  if (v !== 0 && (v < min || v > max))
    throw new ConfigError(`Invalid environment:\n  ${name}: must be 0 or between ${min} and ${max} seconds`);
  return v;
}

function baseUrl(raw: string | undefined, dflt: string): string {
  return raw?.trim() ? raw.trim().replace(/\/+$/, '') : dflt;
}
