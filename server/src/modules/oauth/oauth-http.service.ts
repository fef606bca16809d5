import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { SafeHttpClient, SafeRequestOptions, SafeResponse } from '../../common/safe-http';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 256 * 1024;

/** The fetch signature openid-client accepts as its customFetch. */
type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
) => Promise<Response>;

/**
 * Outbound calls of the sign-in providers, all through the SSRF-safe client: the OIDC endpoints and
 * the WeChat server are addresses an administrator types in. Private addresses are refused unless
 * ALLOW_PRIVATE_OUTBOUND=true; OUTBOUND_CA_FILE adds trusted certificate authorities.
 */
@Injectable()
export class OAuthHttpService implements OnModuleDestroy {
  private readonly http: SafeHttpClient;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.http = SafeHttpClient.forConfig(config);
  }

  fetch(url: string, opts: SafeRequestOptions = {}): Promise<SafeResponse> {
    return this.http.fetch(url, { timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES, maxRedirects: 0, ...opts });
  }

  /** The same client shaped as a Fetch API function, for openid-client. Redirects are not followed. */
  readonly asFetch: FetchLike = async (url, init) => {
    const method = init.method.toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new Error(`unsupported method ${method}`);
    const res = await this.fetch(url, { method, headers: init.headers, body: bodyText(init.body) });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const empty = res.status === 204 || res.status === 304;
    return new Response(empty ? null : res.body, { status: res.status, headers });
  };

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
  throw new Error('unsupported request body');
}
