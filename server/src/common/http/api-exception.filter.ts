import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../app-error';
import { Lang, MessageKey, pickLang, translate } from '../i18n/messages';

/** Errors whose answer carries a flag in `data`, for clients that react to them (the console prompts). */
const MARKED_ERRORS = new Map<MessageKey, string>([
  ['setup_required', 'setup_required'],
  ['step_up_required', 'step_up_required'],
  ['two_factor_enrolment_required', 'two_factor_required'],
]);

/** Path prefixes that never fall back to the console's index.html. */
export const API_PREFIXES = ['/api', '/v1', '/v1beta', '/pg', '/mj', '/suno'];

export function isApiPath(url: string): boolean {
  const path = url.split('?')[0];
  return API_PREFIXES.some((p) => path === p || path.startsWith(p + '/'));
}

/**
 * Maps every error of the management API onto the envelope. Unknown non-API GET paths serve the console
 * (client-side routing). The relay routes install their own error format.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  constructor(private readonly staticDir: string) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    const lang: Lang = req.lang ?? pickLang(req.headers['accept-language']);
    const send = (status: number, key: MessageKey | null, message?: string, data: unknown = null) => {
      void reply
        .status(status)
        .header('content-type', 'application/json; charset=utf-8')
        .send({ success: false, message: message ?? (key ? translate(key, lang) : ''), data });
    };

    if (exception instanceof AppError) {
      const data = MARKED_ERRORS.has(exception.key) ? { [MARKED_ERRORS.get(exception.key)!]: true } : null;
      return send(exception.status, null, translate(exception.key, lang, exception.params), data);
    }
    if (exception instanceof ThrottlerException) return send(HttpStatus.TOO_MANY_REQUESTS, 'rate_limited');
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === HttpStatus.NOT_FOUND) {
        if (!isApiPath(req.url) && (req.method === 'GET' || req.method === 'HEAD'))
          return this.serveConsole(reply);
        return send(HttpStatus.NOT_FOUND, 'not_found_route');
      }
      if (status === HttpStatus.PAYLOAD_TOO_LARGE) return send(status, 'body_too_large');
      if (status === HttpStatus.UNAUTHORIZED) return send(status, 'not_logged_in');
      if (status === HttpStatus.FORBIDDEN) return send(status, 'forbidden');
      if (status === HttpStatus.TOO_MANY_REQUESTS) return send(status, 'rate_limited');
      if (status === HttpStatus.METHOD_NOT_ALLOWED) return send(HttpStatus.NOT_FOUND, 'not_found_route');
      if (status < 500) return send(HttpStatus.OK, null, this.validationMessage(exception, lang));
    }
    const fastifyCode = (exception as { code?: string; statusCode?: number } | null)?.code;
    // PostgreSQL refuses NUL and other characters it cannot store in text: that is bad input, not a bug.
    const driverCode = (exception as { driverError?: { code?: string } } | null)?.driverError?.code;
    if (driverCode === '22021' || driverCode === '22P05') return send(HttpStatus.OK, 'invalid_params');
    if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return send(HttpStatus.PAYLOAD_TOO_LARGE, 'body_too_large');
    if (fastifyCode?.startsWith('FST_ERR_CTP_')) return send(HttpStatus.OK, 'invalid_json');
    if ((exception as SyntaxError)?.name === 'SyntaxError') return send(HttpStatus.OK, 'invalid_json');
    this.logger.error(
      `unhandled error on ${req.method} ${req.url.split('?')[0]} [${String(req.id)}]`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    return send(HttpStatus.INTERNAL_SERVER_ERROR, 'internal_error');
  }

  private validationMessage(exception: HttpException, lang: Lang): string {
    const body = exception.getResponse() as { message?: string | string[] } | string;
    const msg = typeof body === 'string' ? body : body.message;
    if (Array.isArray(msg) && msg.length) return translate('invalid_params', lang) + ': ' + msg.join('; ');
    if (typeof msg === 'string' && msg) {
      if (/JSON/i.test(msg)) return translate('invalid_json', lang);
      return translate('invalid_params', lang) + ': ' + msg;
    }
    return translate('invalid_params', lang);
  }

  private serveConsole(reply: FastifyReply): void {
    const index = join(this.staticDir, 'index.html');
    if (existsSync(index)) {
      void reply.status(200).header('cache-control', 'no-cache').sendFile('index.html', this.staticDir);
      return;
    }
    void reply
      .status(200)
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><title>Gatehouse</title><p>The console is not built. Run <code>npm run build</code>.</p>',
      );
  }
}
