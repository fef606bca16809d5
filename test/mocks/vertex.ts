/**
 * Google Vertex AI: the OAuth token endpoint of service accounts and the two publishers' endpoints.
 *
 *  - POST /token, form-encoded {grant_type: urn:ietf:params:oauth:grant-type:jwt-bearer, assertion}:
 *    the RS256 JWT of a service account (iss = client_email, aud = this endpoint, scope, iat/exp at most
 *    an hour apart; its signature is checked when `auth.signingKeys[client_email]` holds the public
 *    key) → {access_token, expires_in, token_type}. Errors are OAuth's {error, error_description}.
 *  - /v1/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent | :streamGenerateContent
 *    → the Gemini format (see gemini.ts).
 *  - /v1/projects/{p}/locations/{l}/publishers/anthropic/models/{m}:rawPredict | :streamRawPredict
 *    → the Anthropic format, the body carrying anthropic_version "vertex-2023-10-16" and no model.
 * Model calls need `Authorization: Bearer <a token this mock issued>`; others get Google's 401.
 */
import { createPublicKey, verify } from 'node:crypto';
import { answerMessage, anthropicError } from './anthropic';
import { Ctx, Exchange, RecordedRequest } from './exchange';
import { generateContent, geminiError } from './gemini';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const VERTEX_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/;

function oauthError(ex: Exchange, status: number, error: string, description: string): void {
  ex.json(status, { error, error_description: description });
}

function decodeSegment(segment: string | undefined): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The form fields of an x-www-form-urlencoded body. */
export function formOf(record: RecordedRequest): URLSearchParams {
  return new URLSearchParams(record.rawBody.toString('utf8'));
}

/** The `iss` of the assertion of a token request (the credential `requireKey` is matched against). */
export function assertionIssuer(record: RecordedRequest): string | null {
  const claims = decodeSegment(formOf(record).get('assertion')?.split('.')[1]);
  return typeof claims?.iss === 'string' ? claims.iss : null;
}

/** POST /token: a service account's JWT bearer grant. */
export function googleToken(ctx: Ctx): void {
  const { ex, record } = ctx;
  const form = formOf(record);
  const grant = form.get('grant_type');
  if (grant !== JWT_BEARER_GRANT) {
    return oauthError(ex, 400, 'unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
  }
  const [head, payload, signature] = (form.get('assertion') ?? '').split('.');
  const header = decodeSegment(head);
  const claims = decodeSegment(payload);
  if (!header || !claims || signature === undefined)
    return oauthError(ex, 400, 'invalid_grant', 'Invalid JWT.');
  if (header.alg !== 'RS256')
    return oauthError(ex, 400, 'invalid_grant', 'Invalid JWT: unsupported algorithm.');
  if (typeof claims.iss !== 'string')
    return oauthError(ex, 400, 'invalid_request', 'Invalid JWT: no issuer.');
  if (claims.aud !== `${ctx.baseUrl}/token`) {
    return oauthError(ex, 400, 'invalid_grant', 'Invalid JWT: Failed audience check.');
  }
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  if (!Number.isFinite(iat) || !Number.isFinite(exp) || exp <= iat || exp - iat > 3600) {
    return oauthError(
      ex,
      400,
      'invalid_grant',
      'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.',
    );
  }
  if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes(CLOUD_PLATFORM_SCOPE)) {
    return oauthError(ex, 400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
  }
  const publicKey = ctx.auth.signingKeys[claims.iss];
  if (publicKey !== undefined) {
    const valid = verify(
      'RSA-SHA256',
      Buffer.from(`${head}.${payload}`),
      createPublicKey(publicKey),
      Buffer.from(signature, 'base64url'),
    );
    if (!valid) return oauthError(ex, 400, 'invalid_grant', 'Invalid JWT Signature.');
  }
  const token = `ya29.mock-${ctx.n}`;
  ctx.auth.issued.set(token, claims.iss);
  ex.json(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
}

function bearerOf(record: RecordedRequest): string | undefined {
  const value = record.headers.authorization;
  return /^Bearer\s+(.+)$/i.exec(Array.isArray(value) ? value[0] : (value ?? ''))?.[1];
}

/** Who the bearer token of a model call was issued to (else the token itself, or null). */
export function vertexCredential(ctx: Pick<Ctx, 'auth'>, record: RecordedRequest): string | null {
  const token = bearerOf(record);
  return token === undefined ? null : (ctx.auth.issued.get(token) ?? token);
}

/** POST …/publishers/{google|anthropic}/models/{model}:{action}. */
export async function vertexModel(ctx: Ctx): Promise<void> {
  const { ex, record, body } = ctx;
  const [, , , publisher, , action] = VERTEX_PATH.exec(record.path) ?? [];
  const token = bearerOf(record);
  if (token === undefined || !ctx.auth.issued.has(token)) {
    return geminiError(
      ex,
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or ' +
        'other valid authentication credential.',
    );
  }
  if (publisher === 'google') {
    if (action === 'generateContent') return generateContent(ctx, false);
    if (action === 'streamGenerateContent') return generateContent(ctx, true);
    return geminiError(ex, 400, `Unknown method ${action}.`);
  }
  if (action !== 'rawPredict' && action !== 'streamRawPredict') {
    return geminiError(ex, 400, `Unknown method ${action}.`);
  }
  if (body.anthropic_version !== VERTEX_ANTHROPIC_VERSION) {
    return anthropicError(ex, 400, `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`);
  }
  if (typeof body.max_tokens !== 'number') return anthropicError(ex, 400, 'max_tokens: Field required');
  if (!Array.isArray(body.messages)) return anthropicError(ex, 400, 'messages: Field required');
  await answerMessage(ctx, {
    model: (ctx.pathModel ?? '').replace('@', '-'),
    stream: body.stream === true,
    writeError: anthropicError,
  });
}
