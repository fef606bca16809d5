import { Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { Lang, MessageKey, translate } from '../../common/i18n/messages';
import type { WireFormat } from './types';

/**
 * A relay failure. It carries a real HTTP status and is written in the caller's format
 * (OpenAI, Anthropic or Gemini error bodies). `message` is either a catalogue key or, for upstream
 * failures, the upstream's own (sanitized) text.
 */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey | null,
    readonly params: Record<string, unknown> = {},
    /** Upstream text when key is null. */
    readonly text = '',
    /** OpenAI error `code`. */
    readonly code: string | null = null,
    /** Retrying on another channel may help (network errors, 429, 5xx...). */
    readonly retryable = false,
    /** The status the upstream answered with, before the channel's status-code mapping (health uses it). */
    readonly upstreamStatus: number | null = null,
  ) {
    super(key ?? text);
  }

  /** What the operator reads in the error log when it says more than the caller's message (the upstream's own words). */
  detail: string | null = null;

  /** Seconds after which the same call may succeed (answered as `Retry-After`); null when waiting does not help. */
  retryAfter: number | null = null;

  /** A refusal of ours (bad input, permissions, the caller's quota): never retried on another channel. */
  static refused(
    status: number,
    key: MessageKey,
    params: Record<string, unknown> = {},
    code: string | null = null,
  ): RelayError {
    return new RelayError(status, key, params, '', code);
  }

  /**
   * An upstream failure by named parts: the caller's message (a catalogue key, or the upstream's own
   * sanitized text), whether another channel may help, and the status the upstream answered with.
   */
  static upstream(o: {
    status: number;
    key?: MessageKey;
    params?: Record<string, unknown>;
    text?: string;
    code?: string | null;
    retryable: boolean;
    upstreamStatus?: number | null;
    detail?: string;
  }): RelayError {
    const e = new RelayError(
      o.status,
      o.key ?? null,
      o.params ?? {},
      o.text ?? '',
      o.code ?? null,
      o.retryable,
      o.upstreamStatus ?? null,
    );
    if (o.detail) e.detail = o.detail;
    return e;
  }

  /** The upstream answered with a body that is not JSON: another channel may answer well. */
  static badUpstreamJson(): RelayError {
    return upstreamFailed('invalid JSON from upstream');
  }

  /** The upstream ended its answer before it was complete (retryable while nothing reached the caller). */
  static cutShort(): RelayError {
    return upstreamFailed('the upstream cut its answer short');
  }

  /** An upstream that took too long (retryable on another channel, never on the same one by default). */
  static timeout(reason: string): RelayError {
    return RelayError.upstream({
      status: 504,
      key: 'relay_upstream_timeout',
      params: { reason },
      code: 'upstream_timeout',
      retryable: true,
      detail: reason,
    });
  }

  /** A refusal by a limit or a budget: 429 with the wait that helps, in whole seconds (at least 1). */
  static limited(
    key: MessageKey,
    params: Record<string, unknown>,
    code: string,
    retryAfterSeconds: number,
  ): RelayError {
    const e = new RelayError(429, key, params, '', code);
    e.retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
    return e;
  }

  /** The error log's text: the detail when there is one, else the English message. */
  logText(): string {
    return this.detail ? `${this.messageIn('en')}: ${this.detail}` : this.messageIn('en');
  }

  messageIn(lang: Lang): string {
    return this.key ? translate(this.key, lang, this.params) : this.text;
  }
}

/** A failed upstream answer, named by its reason: 502 `upstream_error`, retryable on another channel. */
function upstreamFailed(reason: string): RelayError {
  return RelayError.upstream({
    status: 502,
    key: 'relay_upstream_failed',
    params: { reason },
    code: 'upstream_error',
    retryable: true,
  });
}

const logger = new Logger('Relay');

/** Any failure as a relay error: app errors keep their message, anything unexpected is logged and becomes a 500. */
export function toRelayError(err: unknown): RelayError {
  if (err instanceof RelayError) return err;
  if (err instanceof AppError)
    return new RelayError(err.status === 200 ? 400 : err.status, err.key, err.params);
  // A body nested so deep that walking it exhausts the stack: the caller's fault, not the gateway's.
  if (err instanceof RangeError && /call stack/i.test(err.message))
    return new RelayError(
      400,
      'relay_bad_body',
      { reason: 'the body is nested too deeply' },
      '',
      'invalid_request',
    );
  logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  return new RelayError(500, 'internal_error');
}

export const relayFail = (
  status: number,
  key: MessageKey,
  params: Record<string, unknown> = {},
  code: string | null = null,
) => new RelayError(status, key, params, '', code);

const OPENAI_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
};
const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function anthropicType(status: number): string {
  if (status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return OPENAI_TYPES[status] ?? 'invalid_request_error';
}

/** The error body in the caller's wire format. */
export function errorBody(
  format: WireFormat,
  status: number,
  message: string,
  code: string | null = null,
): object {
  switch (format) {
    case 'anthropic':
      return { type: 'error', error: { type: anthropicType(status), message } };
    case 'gemini':
      return {
        error: {
          code: status,
          message,
          status: GEMINI_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
        },
      };
    default:
      return {
        error: {
          message,
          type: OPENAI_TYPES[status] ?? (status >= 500 ? 'upstream_error' : 'invalid_request_error'),
          param: null,
          code,
        },
      };
  }
}

/**
 * Strips URLs, bearer credentials and key-looking strings from upstream text before it reaches a
 * client (the one scrubber: adapters use it for the messages they extract too).
 */
export function sanitizeUpstreamText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // The channel's own keys first, whole and in parts (`id.secret`, `app|key|secret`, `ak:sk`...): an
  // upstream that echoes a credential must not hand it to the caller, whatever it looks like.
  for (const secret of secrets) for (const part of secretParts(secret)) out = out.split(part).join('[key]');
  return out
    .replace(/https?:\/\/[^\s"'<>]+/g, '[url]')
    .replace(/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [key]')
    .replace(/\b(?:sk|ak|rk|pk)-[A-Za-z0-9_*-]{6,}/g, '[key]')
    .replace(/\bAIza[A-Za-z0-9_-]{10,}/g, '[key]')
    .replace(/\b[A-Za-z0-9_-]{32,}\b/g, '[redacted]')
    .slice(0, 1000);
}

/** A key and its parts long enough to be secret, longest first. */
function secretParts(secret: string): string[] {
  const key = secret.trim();
  if (key.length < 6) return [];
  const parts = new Set([key]);
  for (const p of key.split(/[.|:,\s/]+/)) if (p.length >= 6) parts.add(p);
  return [...parts].sort((a, b) => b.length - a.length);
}
