import type { FastifyReply, FastifyRequest } from 'fastify';
import { CryptoService } from '../crypto.service';

export const SESSION_COOKIE = 'session';
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface SessionClaims {
  sid: string;
  uid: number;
  /** Unix milliseconds the session was issued. */
  issuedAt: number;
}

/**
 * Sets a new session cookie for `uid`: `sid.uid.issued-at-ms`, signed with SESSION_SECRET by
 * @fastify/cookie, HttpOnly, SameSite=Lax, Secure behind https.
 */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, uid: number): SessionClaims {
  const claims = { sid: CryptoService.randomString(24), uid, issuedAt: Date.now() };
  reply.setCookie(SESSION_COOKIE, `${claims.sid}.${claims.uid}.${claims.issuedAt}`, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
  });
  return claims;
}
