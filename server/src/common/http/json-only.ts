import { HttpStatus } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../app-error';

/**
 * Refuses a sign-in body that is not JSON (415 `json_body_required`). A cross-site HTML form can post
 * `application/x-www-form-urlencoded` (or `multipart/form-data`, `text/plain`) without a preflight,
 * which would sign the victim's browser into the attacker's account (login CSRF); a JSON body cannot
 * be sent cross-site without the browser asking first.
 */
export function assertJsonBody(req: FastifyRequest): void {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'application/json')
    throw new AppError('json_body_required', {}, HttpStatus.UNSUPPORTED_MEDIA_TYPE);
}
