import { HttpStatus } from '@nestjs/common';
import { MessageKey } from './i18n/messages';

/**
 * A failure of the management API. Business failures answer HTTP 200 with `success:false`
 * (the console shows the message); authentication and permission failures carry their real status.
 */
export class AppError extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Record<string, unknown> = {},
    readonly status: number = HttpStatus.OK,
  ) {
    super(key);
  }
}

export const fail = (key: MessageKey, params?: Record<string, unknown>) => new AppError(key, params);
export const unauthorized = (key: MessageKey = 'not_logged_in') =>
  new AppError(key, {}, HttpStatus.UNAUTHORIZED);
export const forbidden = (key: MessageKey = 'forbidden') => new AppError(key, {}, HttpStatus.FORBIDDEN);
