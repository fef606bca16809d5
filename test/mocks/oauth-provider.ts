/**
 * A local stand-in for the third-party sign-in services, on one port:
 *
 *   OpenID Connect provider (issuer = the server's origin): /.well-known/openid-configuration,
 *     /authorize, /token (client_secret_post or _basic; PKCE S256 enforced when a challenge was sent),
 *     /userinfo, /jwks; ID tokens are RS256 JWTs, with faults on demand (`idTokenFault`).
 *   GitHub-shaped: /github/login/oauth/{authorize,access_token} and the REST API /github-api/user.
 *   LinuxDO-shaped: /linuxdo/oauth2/{authorize,token} (Basic client auth) and /linuxdo/api/user.
 *   WeChat server: /wechat/api/wechat/user?code= with `Authorization: <token>`.
 *
 * The authorize endpoints stand in for the provider's login page: `login_hint` names the person (a key
 * of `users`) who "logs in"; they answer 302 to the redirect URI with code and state, as a provider
 * does after consent. Codes and access tokens are single-use / per-provider, as at the real services.
 * Every request is recorded. `signTelegram` plays Telegram's part for the Login Widget.
 */
import { createHash, createHmac, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MockPerson {
  /** Numeric account id at GitHub and LinuxDO; the OIDC subject is `sub-<id>`. */
  id: number;
  login: string;
  name?: string;
  email?: string;
  emailVerified?: boolean;
  /** LinuxDO */
  trustLevel?: number;
  active?: boolean;
  silenced?: boolean;
}

export type IdTokenFault =
  'bad-signature' | 'wrong-nonce' | 'wrong-audience' | 'wrong-issuer' | 'expired' | 'missing' | null;

type Kind = 'oidc' | 'github' | 'linuxdo';

interface IssuedCode {
  kind: Kind;
  person: string;
  clientId: string;
  redirectUri: string | null;
  challenge: string | null;
  nonce: string | null;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  form: Record<string, string>;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export class MockOAuthProvider {
  readonly users = new Map<string, MockPerson>();
  readonly calls: RecordedCall[] = [];
  readonly clients = {
    oidc: { id: 'oidc-client', secret: 'oidc-secret-S3cr3t-value' },
    github: { id: 'gh-client', secret: 'gh-secret-S3cr3t-value' },
    linuxdo: { id: 'ld-client', secret: 'ld-secret-S3cr3t-value' },
  };
  /** The token the WeChat server expects in `Authorization`. */
  wechatToken = 'wechat-server-token-S3cr3t';
  /** Where GitHub sends the browser back when the authorize request names no redirect_uri. */
  githubCallback = 'http://gatehouse.test/oauth/github';
  /** The next ID tokens' defect (null = a valid token). */
  idTokenFault: IdTokenFault = null;
  /** Omit jwks_uri from the discovery document. */
  discoveryWithoutJwks = false;
  /** Make the discovery document fail (500). */
  discoveryBroken = false;

  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, { kind: Kind; person: string }>();
  private readonly wechatCodes = new Map<string, string>();
  private readonly key: KeyObject;
  private readonly otherKey: KeyObject;
  private readonly jwk: Record<string, unknown>;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.key = pair.privateKey;
    this.otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    this.jwk = { ...pair.publicKey.export({ format: 'jwk' }), kid: 'mock-key-1', alg: 'RS256', use: 'sig' };
  }

  static async start(): Promise<MockOAuthProvider> {
    let mock: MockOAuthProvider | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          mock!.handle(req, res, Buffer.concat(chunks).toString('utf8'));
        } catch (e) {
          json(res, 500, { error: 'server_error', error_description: (e as Error).message });
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    mock = new MockOAuthProvider(server, `http://127.0.0.1:${port}`);
    return mock;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get issuer(): string {
    return this.url;
  }

  addPerson(key: string, person: MockPerson): MockPerson {
    this.users.set(key, person);
    return person;
  }

  /** A scan code the WeChat server will turn into `openid` once. */
  wechatCode(openid: string): string {
    const code = randomBytes(3).toString('hex').toUpperCase();
    this.wechatCodes.set(code, openid);
    return code;
  }

  /**
   * Plays the browser at the provider's login page: opens `authorizeUrl` as person `who` and returns
   * the code and state the provider's redirect carries.
   */
  async authorize(
    authorizeUrl: string,
    who: string,
  ): Promise<{ code: string; state: string; location: URL }> {
    const url = new URL(authorizeUrl);
    url.searchParams.set('login_hint', who);
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location)
      throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
    const back = new URL(location);
    return {
      code: back.searchParams.get('code') ?? '',
      state: back.searchParams.get('state') ?? '',
      location: back,
    };
  }

  callsTo(path: string): RecordedCall[] {
    return this.calls.filter((c) => c.path === path);
  }

  // ---- HTTP ----

  private handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const u = new URL(req.url ?? '/', this.url);
    const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(raw))
      : {};
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      headers: req.headers,
      form,
    };
    this.calls.push(call);
    const route = `${call.method} ${u.pathname}`;
    switch (route) {
      case 'GET /.well-known/openid-configuration':
        return this.discovery(res);
      case 'GET /jwks':
        return json(res, 200, { keys: [this.jwk] });
      case 'GET /authorize':
        return this.authorizePage(res, 'oidc', call.query);
      case 'POST /token':
        return this.token(req, res, 'oidc', form);
      case 'GET /userinfo':
        return this.userinfo(req, res);
      case 'GET /github/login/oauth/authorize':
        return this.authorizePage(res, 'github', call.query);
      case 'POST /github/login/oauth/access_token':
        return this.token(req, res, 'github', form);
      case 'GET /github-api/user':
        return this.githubUser(req, res);
      case 'GET /github-api/user/emails':
        return json(res, 403, { message: 'Resource not accessible by integration' });
      case 'GET /linuxdo/oauth2/authorize':
        return this.authorizePage(res, 'linuxdo', call.query);
      case 'POST /linuxdo/oauth2/token':
        return this.token(req, res, 'linuxdo', form);
      case 'GET /linuxdo/api/user':
        return this.linuxdoUser(req, res);
      case 'GET /wechat/api/wechat/user':
        return this.wechatUser(req, res, call.query.code ?? '');
      default:
        return json(res, 404, { error: 'not_found' });
    }
  }

  private discovery(res: ServerResponse): void {
    if (this.discoveryBroken) return json(res, 500, { error: 'server_error' });
    const u = this.url;
    json(res, 200, {
      issuer: this.issuer,
      authorization_endpoint: `${u}/authorize`,
      token_endpoint: `${u}/token`,
      userinfo_endpoint: `${u}/userinfo`,
      ...(this.discoveryWithoutJwks ? {} : { jwks_uri: `${u}/jwks` }),
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      scopes_supported: ['openid', 'profile', 'email'],
    });
  }

  private authorizePage(res: ServerResponse, kind: Kind, q: Record<string, string>): void {
    const client = this.clients[kind];
    if (q.client_id !== client.id) return json(res, 400, { error: 'invalid_client' });
    if (kind !== 'github' && q.response_type !== 'code')
      return json(res, 400, { error: 'unsupported_response_type' });
    const redirectUri = q.redirect_uri || (kind === 'github' ? this.githubCallback : '');
    if (!redirectUri) return json(res, 400, { error: 'invalid_request', error_description: 'redirect_uri' });
    if (!this.users.has(q.login_hint ?? '')) return json(res, 400, { error: 'access_denied' });
    if (kind === 'oidc' && !(q.scope ?? '').split(' ').includes('openid')) {
      return json(res, 400, { error: 'invalid_scope' });
    }
    if (q.code_challenge && q.code_challenge_method !== 'S256')
      return json(res, 400, { error: 'invalid_request' });
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      kind,
      person: q.login_hint,
      clientId: client.id,
      redirectUri: q.redirect_uri || null,
      challenge: q.code_challenge || null,
      nonce: q.nonce || null,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    if (q.state !== undefined) back.searchParams.set('state', q.state);
    res.writeHead(302, { location: back.toString() }).end();
  }

  private clientAuth(req: IncomingMessage, form: Record<string, string>): { id: string; secret: string } {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1], 'base64')
        .toString('utf8')
        .split(':')
        .map(decodeURIComponent);
      return { id: id ?? '', secret: secret ?? '' };
    }
    return { id: form.client_id ?? '', secret: form.client_secret ?? '' };
  }

  private token(req: IncomingMessage, res: ServerResponse, kind: Kind, form: Record<string, string>): void {
    const client = this.clients[kind];
    const auth = this.clientAuth(req, form);
    if (kind === 'linuxdo' && !/^Basic /i.test(req.headers.authorization ?? '')) {
      return json(res, 401, { error: 'invalid_client', error_description: 'Basic authentication required' });
    }
    if (auth.id !== client.id || auth.secret !== client.secret)
      return json(res, 401, { error: 'invalid_client' });
    // GitHub answers a bad code with HTTP 200 and an error object.
    const bad = (description: string) =>
      json(res, kind === 'github' ? 200 : 400, {
        error: kind === 'github' ? 'bad_verification_code' : 'invalid_grant',
        error_description: description,
      });
    if (kind !== 'github' && form.grant_type !== 'authorization_code')
      return json(res, 400, { error: 'unsupported_grant_type' });
    const issued = this.codes.get(form.code ?? '');
    this.codes.delete(form.code ?? '');
    if (!issued || issued.kind !== kind || issued.clientId !== client.id) return bad('unknown or used code');
    if (issued.redirectUri !== null && form.redirect_uri !== issued.redirectUri)
      return bad('redirect_uri mismatch');
    if (issued.challenge !== null) {
      const verifier = form.code_verifier ?? '';
      if (b64url(createHash('sha256').update(verifier).digest()) !== issued.challenge)
        return bad('PKCE verification failed');
    }
    const access = randomBytes(16).toString('hex');
    this.tokens.set(access, { kind, person: issued.person });
    const body: Record<string, unknown> = {
      access_token: access,
      token_type: kind === 'github' ? 'bearer' : 'Bearer',
      expires_in: 3600,
      scope: kind === 'oidc' ? 'openid profile email' : 'user',
    };
    if (kind === 'oidc' && this.idTokenFault !== 'missing') body.id_token = this.idToken(issued);
    json(res, 200, body);
  }

  private idToken(issued: IssuedCode): string {
    const person = this.users.get(issued.person)!;
    const now = Math.floor(Date.now() / 1000);
    const fault = this.idTokenFault;
    const claims: Record<string, unknown> = {
      iss: fault === 'wrong-issuer' ? 'https://someone-else.example' : this.issuer,
      sub: `sub-${person.id}`,
      aud: fault === 'wrong-audience' ? 'another-client' : issued.clientId,
      iat: fault === 'expired' ? now - 7200 : now,
      exp: fault === 'expired' ? now - 3600 : now + 300,
      ...(issued.nonce ? { nonce: fault === 'wrong-nonce' ? 'not-the-nonce' : issued.nonce } : {}),
      name: person.name,
      preferred_username: person.login,
    };
    const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'mock-key-1' }));
    const payload = b64url(JSON.stringify(claims));
    const key = fault === 'bad-signature' ? this.otherKey : this.key;
    const signature = b64url(sign('sha256', Buffer.from(`${header}.${payload}`), key));
    return `${header}.${payload}.${signature}`;
  }

  private bearer(req: IncomingMessage, kind: Kind): MockPerson | null {
    const m = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? '');
    const grant = m ? this.tokens.get(m[1]) : undefined;
    return grant && grant.kind === kind ? (this.users.get(grant.person) ?? null) : null;
  }

  private userinfo(req: IncomingMessage, res: ServerResponse): void {
    const p = this.bearer(req, 'oidc');
    if (!p) return json(res, 401, { error: 'invalid_token' });
    json(res, 200, {
      sub: `sub-${p.id}`,
      preferred_username: p.login,
      name: p.name,
      email: p.email,
      email_verified: p.emailVerified ?? false,
    });
  }

  private githubUser(req: IncomingMessage, res: ServerResponse): void {
    const p = this.bearer(req, 'github');
    if (!p) return json(res, 401, { message: 'Bad credentials' });
    if (!req.headers['user-agent']) return json(res, 403, { message: 'User-Agent required' });
    json(res, 200, {
      id: p.id,
      login: p.login,
      name: p.name ?? null,
      email: p.emailVerified ? (p.email ?? null) : null,
      html_url: `https://github.example/${p.login}`,
    });
  }

  private linuxdoUser(req: IncomingMessage, res: ServerResponse): void {
    const p = this.bearer(req, 'linuxdo');
    if (!p) return json(res, 401, { error: 'invalid_token' });
    json(res, 200, {
      id: p.id,
      username: p.login,
      name: p.name ?? '',
      active: p.active ?? true,
      trust_level: p.trustLevel ?? 1,
      silenced: p.silenced ?? false,
    });
  }

  private wechatUser(req: IncomingMessage, res: ServerResponse, code: string): void {
    if (req.headers.authorization !== this.wechatToken) {
      return json(res, 200, { success: false, message: '无权进行此操作，未登录或 token 无效', data: '' });
    }
    const openid = this.wechatCodes.get(code.toUpperCase());
    this.wechatCodes.delete(code.toUpperCase());
    if (!openid) return json(res, 200, { success: false, message: '验证码错误或已过期', data: '' });
    json(res, 200, { success: true, message: '', data: openid });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Telegram's side of the Login Widget: the fields plus their hash under SHA256(bot token). */
export function signTelegram(fields: Record<string, string>, botToken: string): Record<string, string> {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(check).digest('hex') };
}
