import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource, LessThan } from 'typeorm';
import { fail } from '../../common/app-error';
import { isUniqueViolation } from '../../common/db-errors';
import { nowSeconds } from '../../common/time';
import { Passkey, PasskeyChallenge, User, UserStatus } from '../../database/entities';
import { OptionService } from '../option';
import { TwoFactorService } from './two-factor.service';

const CHALLENGE_COOKIE = 'passkey_challenge';
const CHALLENGE_SECONDS = 300;
const MAX_PASSKEYS = 10;

/** What a challenge was issued for: registering, signing in, or confirming a signed-in user. */
type Purpose = 'reg' | 'auth' | 'step';

interface RelyingParty {
  rpID: string;
  origin: string;
  rpName: string;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const challengeHash = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

/**
 * SimpleWebAuthn, loaded on the first passkey call: with its certificate parsers it is ~8 MB of a
 * process's resident memory that a gateway without passkey users never needs.
 */
const webauthn = () => import('@simplewebauthn/server');

/**
 * Passkeys (WebAuthn) through SimpleWebAuthn: registration by a signed-in user, sign-in (as the second
 * step after a password, or without one: a discoverable credential names its user), and step-up checks.
 * A challenge is kept server-side (passkey_challenges) for 5 minutes, bound to its purpose and user,
 * and deleted by the ceremony that uses it; the signed HttpOnly cookie only names it. The relying party is the site of ServerAddress, or of the request when it is unset.
 */
@Injectable()
export class PasskeyService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  private get repo() {
    return this.ds.getRepository(Passkey);
  }

  relyingParty(req: FastifyRequest): RelyingParty {
    const configured = this.options.get('ServerAddress');
    const origin = configured
      ? new URL(configured).origin
      : `${req.protocol}://${req.headers.host ?? req.hostname}`;
    return { rpID: new URL(origin).hostname, origin, rpName: this.options.get('SystemName') || 'Gatehouse' };
  }

  async registrationOptions(
    req: FastifyRequest,
    reply: FastifyReply,
    user: { id: number; username: string },
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const mine = await this.repo.findBy({ user_id: user.id });
    if (mine.length >= MAX_PASSKEYS) throw fail('passkey_limit');
    const rp = this.relyingParty(req);
    const { generateRegistrationOptions } = await webauthn();
    const options = await generateRegistrationOptions({
      rpName: rp.rpName,
      rpID: rp.rpID,
      userName: user.username,
      userID: new TextEncoder().encode(String(user.id)),
      attestationType: 'none',
      excludeCredentials: mine.map((p) => ({
        id: p.credential_id,
        transports: splitTransports(p.transports),
      })),
      // Discoverable, so that the passkey alone can sign in (the account is named by the credential).
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.setChallenge(req, reply, 'reg', user.id, options.challenge);
    return options;
  }

  async register(
    req: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    response: unknown,
    name: unknown,
  ): Promise<{ id: number; name: string }> {
    if (name !== undefined && (typeof name !== 'string' || [...name].length > 64))
      throw fail('passkey_name_invalid');
    const challenge = await this.takeChallenge(req, reply, 'reg', userId);
    const rp = this.relyingParty(req);
    const { verifyRegistrationResponse } = await webauthn();
    let info;
    try {
      const result = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
      });
      if (!result.verified) throw new Error('not verified');
      info = result.registrationInfo;
    } catch {
      throw fail('passkey_invalid');
    }
    if (info.credential.id.length > 512) throw fail('passkey_invalid');
    if ((await this.repo.countBy({ user_id: userId })) >= MAX_PASSKEYS) throw fail('passkey_limit');
    const label =
      (typeof name === 'string' && name.trim()) || `Passkey ${new Date().toISOString().slice(0, 10)}`;
    const now = nowSeconds();
    let id: number;
    try {
      const inserted = await this.repo.insert({
        user_id: userId,
        credential_id: info.credential.id,
        public_key: b64url(info.credential.publicKey),
        counter: info.credential.counter,
        transports: (info.credential.transports ?? []).join(','),
        name: label,
        created_at: now,
        last_used_at: 0,
      });
      id = Number(inserted.identifiers[0].id);
    } catch (e) {
      if (isUniqueViolation(e)) throw fail('passkey_invalid');
      throw e;
    }
    await this.twoFactor.syncFlag(userId);
    return { id, name: label };
  }

  async remove(userId: number, id: number): Promise<void> {
    const removed = await this.repo.delete({ id, user_id: userId });
    if (!removed.affected) throw fail('passkey_not_found');
    await this.twoFactor.syncFlag(userId);
  }

  /**
   * Options for a sign-in (`forUser` null: password-less, any discoverable passkey) or for a step-up
   * check of a signed-in user (`forUser` set: only that user's passkeys).
   */
  async authenticationOptions(
    req: FastifyRequest,
    reply: FastifyReply,
    purpose: 'auth' | 'step',
    forUser: number | null,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const rp = this.relyingParty(req);
    const mine = forUser === null ? [] : await this.repo.findBy({ user_id: forUser });
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({
      rpID: rp.rpID,
      userVerification: 'preferred',
      allowCredentials: mine.map((p) => ({ id: p.credential_id, transports: splitTransports(p.transports) })),
    });
    await this.setChallenge(req, reply, purpose, forUser ?? 0, options.challenge);
    return options;
  }

  /**
   * Verifies an assertion; answers the user it proves. `expectUser` (the waiting sign-in or the signed-in
   * user) must own the passkey; without one the passkey must also have verified the user (PIN,
   * biometrics), since it is then the only factor.
   */
  async authenticate(
    req: FastifyRequest,
    reply: FastifyReply,
    purpose: 'auth' | 'step',
    expectUser: number | null,
    raw: unknown,
  ): Promise<User> {
    const challenge = await this.takeChallenge(req, reply, purpose, expectUser ?? 0, purpose === 'auth');
    const response = raw as AuthenticationResponseJSON;
    const credentialId = typeof response?.id === 'string' ? response.id : '';
    const passkey =
      credentialId && credentialId.length <= 512
        ? await this.repo.findOneBy({ credential_id: credentialId })
        : null;
    if (!passkey) throw fail('passkey_unknown');
    if (expectUser !== null && passkey.user_id !== expectUser) throw fail('passkey_invalid');
    const rp = this.relyingParty(req);
    const { verifyAuthenticationResponse } = await webauthn();
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
          counter: passkey.counter,
          transports: splitTransports(passkey.transports),
        },
        requireUserVerification: expectUser === null,
      });
      if (!result.verified) throw new Error('not verified');
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      throw fail('passkey_invalid');
    }
    // The counter only moves forward (a cloned authenticator replaying an old count is refused);
    // authenticators that keep no counter always send 0.
    const moved = await this.repo
      .createQueryBuilder()
      .update(Passkey)
      .set({ counter: newCounter, last_used_at: nowSeconds() })
      .where('id = :id', { id: passkey.id })
      .andWhere(newCounter > 0 ? 'counter < :counter' : 'counter = 0', { counter: newCounter })
      .execute();
    if (!moved.affected) throw fail('passkey_invalid');
    const user = await this.ds.getRepository(User).findOneBy({ id: passkey.user_id });
    if (!user || user.deleted_at || user.status !== UserStatus.Enabled) throw fail('login_failed');
    return user;
  }

  private async setChallenge(
    req: FastifyRequest,
    reply: FastifyReply,
    purpose: Purpose,
    userId: number,
    challenge: string,
  ): Promise<void> {
    const now = nowSeconds();
    const rows = this.ds.getRepository(PasskeyChallenge);
    await rows.delete({ expires_at: LessThan(now) });
    await rows.insert({
      challenge_hash: challengeHash(challenge),
      purpose,
      user_id: userId,
      expires_at: now + CHALLENGE_SECONDS,
    });
    reply.setCookie(
      CHALLENGE_COOKIE,
      `${purpose}.${userId}.${nowSeconds() + CHALLENGE_SECONDS}.${challenge}`,
      {
        signed: true,
        httpOnly: true,
        sameSite: 'strict',
        secure: req.protocol === 'https',
        path: '/api/user/passkey',
        maxAge: CHALLENGE_SECONDS,
      },
    );
  }

  /**
   * The challenge issued for this purpose and user, taken: its server-side row is deleted before the
   * answer is verified (one conditional DELETE, so of two uses, even on two nodes, only one gets it),
   * and the cookie is dropped. A replayed ceremony finds no row.
   */
  private async takeChallenge(
    req: FastifyRequest,
    reply: FastifyReply,
    purpose: Purpose,
    userId: number,
    anyUser = false,
  ): Promise<string> {
    const raw = req.cookies?.[CHALLENGE_COOKIE];
    reply.clearCookie(CHALLENGE_COOKIE, { path: '/api/user/passkey' });
    const unsigned = raw ? req.unsignCookie(raw) : null;
    const m =
      unsigned?.valid && unsigned.value
        ? /^(reg|auth|step)\.(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{16,128})$/.exec(unsigned.value)
        : null;
    if (!m || m[1] !== purpose || Number(m[3]) < nowSeconds()) throw fail('passkey_challenge_missing');
    if (!anyUser && Number(m[2]) !== userId) throw fail('passkey_challenge_missing');
    const taken = await this.ds
      .createQueryBuilder()
      .delete()
      .from(PasskeyChallenge)
      .where('challenge_hash = :hash AND purpose = :purpose AND user_id = :user AND expires_at >= :now', {
        hash: challengeHash(m[4]),
        purpose,
        user: Number(m[2]),
        now: nowSeconds(),
      })
      .execute();
    if (!taken.affected) throw fail('passkey_challenge_missing');
    return m[4];
  }
}

function splitTransports(s: string): string[] | undefined {
  const list = s.split(',').filter(Boolean);
  return list.length ? list : undefined;
}
