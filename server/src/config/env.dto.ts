import { IsIn, IsOptional, IsString, Matches, MinLength } from 'class-validator';

const INT = /^\d+$/;

/** Every environment variable the server reads. Unknown variables are ignored. */
export class EnvDto {
  @IsOptional() @IsIn(['production', 'development', 'test']) NODE_ENV?: string;
  @IsOptional() @Matches(INT, { message: 'must be a port number' }) PORT?: string;
  @IsOptional() @IsString() HOST?: string;
  @IsOptional() @IsString() DATA_DIR?: string;
  @IsOptional() @IsString() SQL_DSN?: string;
  @IsOptional() @IsString() SQLITE_PATH?: string;
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_CONN_STRING?: string;
  @IsOptional()
  @Matches(/^[\w:.-]{1,64}$/, { message: 'letters, digits, _ : . - only' })
  REDIS_PREFIX?: string;
  @IsOptional() @MinLength(16, { message: 'must be at least 16 characters' }) SESSION_SECRET?: string;
  @IsOptional() @MinLength(16, { message: 'must be at least 16 characters' }) CRYPTO_SECRET?: string;
  @IsOptional() @IsIn(['master', 'slave']) NODE_TYPE?: string;
  @IsOptional() @IsString() NODE_NAME?: string;
  @IsOptional() @Matches(INT, { message: 'must be a whole number of seconds' }) SYNC_FREQUENCY?: string;
  @IsOptional()
  @Matches(INT, { message: 'must be a whole number of minutes' })
  CHANNEL_TEST_FREQUENCY?: string;
  @IsOptional() @Matches(INT, { message: 'must be a whole number of seconds' }) STREAMING_TIMEOUT?: string;
  @IsOptional() @Matches(INT, { message: 'must be a whole number of seconds' }) RELAY_TIMEOUT?: string;
  @IsOptional()
  @Matches(INT, { message: 'must be a whole number of seconds' })
  STREAMING_FIRST_BYTE_TIMEOUT?: string;
  @IsOptional() @Matches(INT, { message: 'must be a whole number of seconds' }) CLIENT_BODY_TIMEOUT?: string;
  @IsOptional() @Matches(INT, { message: 'must be a whole number of seconds' }) SHUTDOWN_TIMEOUT?: string;
  @IsOptional() @IsString() TRUSTED_PROXIES?: string;
  @IsOptional() @IsString() TZ?: string;
  @IsOptional() @IsString() STATIC_DIR?: string;
  @IsOptional() @IsIn(['error', 'warn', 'log', 'debug', 'verbose']) LOG_LEVEL?: string;
  @IsOptional() @IsIn(['json', 'text']) LOG_FORMAT?: string;
  @IsOptional() @Matches(INT, { message: 'must be a whole number of megabytes' }) BODY_LIMIT_MB?: string;
  @IsOptional() @Matches(/^([4-9]|1\d)$/, { message: 'must be between 4 and 19' }) BCRYPT_COST?: string;
  @IsOptional() @Matches(INT, { message: 'must be a whole number' }) LOGIN_RATE_LIMIT?: string;
  @IsOptional()
  @Matches(INT, { message: 'must be a whole number of seconds' })
  LOGIN_RATE_LIMIT_WINDOW?: string;
  @IsOptional() @Matches(/^https?:\/\//, { message: 'must be an http(s) URL' }) TURNSTILE_VERIFY_URL?: string;
  @IsOptional() @Matches(/^[\w.-]+\/[\w.-]+$/, { message: 'must be owner/name' }) VERSION_CHECK_REPO?: string;
  @IsOptional() @IsIn(['true', 'false']) ALLOW_PRIVATE_OUTBOUND?: string;
  @IsOptional() @IsString() OUTBOUND_CA_FILE?: string;
  @IsOptional()
  @Matches(/^\d{1,9}(\.\d{1,3})?$/, { message: 'must be a number of seconds (0 = off)' })
  TASK_POLL_INTERVAL?: string;
  @IsOptional() @Matches(/^\d{1,9}$/, { message: 'must be a whole number of seconds' }) TASK_TIMEOUT?: string;
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+/i, { message: 'must be an http(s) URL' })
  GITHUB_OAUTH_URL?: string;
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+/i, { message: 'must be an http(s) URL' })
  GITHUB_API_URL?: string;
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+/i, { message: 'must be an http(s) URL' })
  LINUXDO_OAUTH_URL?: string;
  @IsOptional() @IsIn(['true', 'false']) METRICS_ENABLED?: string;
  @IsOptional() @Matches(/^\S+$/, { message: 'must not contain spaces' }) METRICS_TOKEN?: string;
  /** Origins whose pages may frame the console (CSP frame-ancestors), or `none`; checked in loadConfig. */
  @IsOptional() @IsString() CSP_FRAME_ANCESTORS?: string;
}
