import type { FastifyRequest } from 'fastify';
import type { Lang } from '../i18n/messages';

/** The authenticated caller of a management route, re-read from the user cache on every request. */
export interface AuthUser {
  id: number;
  username: string;
  role: number;
  status: number;
  group: string;
  /** 'session' for a console cookie, 'token' for an access token. */
  via: 'session' | 'token';
  sessionId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthUser;
    lang?: Lang;
  }
}

export type AppRequest = FastifyRequest;
