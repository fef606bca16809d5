import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../common/app-error';
import { nowSeconds } from '../../common/time';
import { OneTimeStore } from './one-time-store';
import type { StateRecord } from './oauth.types';

/** How long a state may be used. */
export const STATE_TTL_SECONDS = 600;
/** An expired state is still recognised (and reported as expired, not unknown) this much longer. */
const EXPIRED_GRACE_SECONDS = 300;
export const BROWSER_COOKIE = 'oauth_browser';
const BROWSER_COOKIE_MAX_AGE = 24 * 3600;
const STATE_FORMAT = /^[A-Za-z0-9_-]{32,128}$/;
const BROWSER_FORMAT = /^[A-Za-z0-9_-]{32}$/;

const keyOf = (state: string) => `state:${createHash('sha256').update(state).digest('hex')}`;
const random = (bytes: number) => randomBytes(bytes).toString('base64url');

/**
 * Sign-in states: unguessable, single-use, valid for ten minutes, and bound to the browser that asked
 * for them (a signed HttpOnly cookie holding a random browser id) and to the user signed in at that
 * moment. A state stolen from a URL or a log is useless in another browser, and a used one is gone.
 * Only a hash of the state is stored.
 */
@Injectable()
export class OAuthStateService {
  constructor(private readonly store: OneTimeStore) {}

  async issue(
    req: FastifyRequest,
    reply: FastifyReply,
    record: Omit<StateRecord, 'browser' | 'expiresAt'>,
  ): Promise<string> {
    const browser = this.browserOf(req) ?? random(24);
    reply.setCookie(BROWSER_COOKIE, browser, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
      path: '/api/oauth',
      maxAge: BROWSER_COOKIE_MAX_AGE,
    });
    const state = random(32);
    const full: StateRecord = { ...record, browser, expiresAt: nowSeconds() + STATE_TTL_SECONDS };
    await this.store.put(keyOf(state), JSON.stringify(full), STATE_TTL_SECONDS + EXPIRED_GRACE_SECONDS);
    return state;
  }

  /**
   * Uses up a state. Refused when it is malformed, unknown or already used, expired, issued to another
   * browser, issued for another provider, or (when `uid` is given: binding) issued to another user.
   */
  async consume(
    req: FastifyRequest,
    state: unknown,
    provider: StateRecord['provider'],
    uid: number | null,
  ): Promise<StateRecord> {
    if (typeof state !== 'string' || !STATE_FORMAT.test(state)) throw fail('oauth_state_invalid');
    const raw = await this.store.take(keyOf(state));
    if (!raw) throw fail('oauth_state_invalid');
    const record = JSON.parse(raw) as StateRecord;
    if (record.expiresAt <= nowSeconds()) throw fail('oauth_state_expired');
    const browser = this.browserOf(req);
    if (!browser || !sameText(browser, record.browser)) throw fail('oauth_state_mismatch');
    if (record.provider !== provider && !(record.provider === '' && provider !== 'oidc')) {
      throw fail('oauth_state_mismatch');
    }
    if (uid !== null && record.uid !== uid) throw fail('oauth_state_mismatch');
    return record;
  }

  private browserOf(req: FastifyRequest): string | null {
    const cookie = req.cookies?.[BROWSER_COOKIE];
    if (!cookie) return null;
    const unsigned = req.unsignCookie(cookie);
    return unsigned.valid && unsigned.value && BROWSER_FORMAT.test(unsigned.value) ? unsigned.value : null;
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
