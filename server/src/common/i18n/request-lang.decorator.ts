import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Lang, pickLang } from './messages';

/** The language the request is answered in (its Accept-Language, else the operator's default). */
export const RequestLang = createParamDecorator((_: unknown, ctx: ExecutionContext): Lang => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  return req.lang ?? pickLang(req.headers['accept-language']);
});
