import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { isApiPath } from './api-exception.filter';

/** Third-party sign-in widgets the console loads when an operator turns them on. */
const TURNSTILE = 'https://challenges.cloudflare.com';
const TELEGRAM_SCRIPT = 'https://telegram.org';

/**
 * The Content-Security-Policy of every page the server sends (console, embedding example, API docs).
 * Scripts only from this origin (plus the Turnstile and Telegram widgets): no inline script, no eval,
 * no plugins, no <base> tricks. Styles allow inline because the console's CSS-in-JS (emotion) writes
 * <style> elements at run time. Images and frames may come from anywhere over http(s): admins' site
 * text may show remote images, a home page or chat link given as an address is shown in an iframe.
 * `frame-ancestors` says which pages may frame the console: this origin, plus the portals listed in
 * CSP_FRAME_ANCESTORS (or nobody with `'none'`).
 */
export function contentSecurityPolicy(frameAncestors: readonly string[]): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", TURNSTILE, TELEGRAM_SCRIPT],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'frame-src': ["'self'", 'https:', 'http:'],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'frame-ancestors': frameAncestors.includes("'none'") ? ["'none'"] : ["'self'", ...frameAncestors],
  };
}

/**
 * Security headers on every answer Fastify sends (the relay's raw fast path answers API clients, not
 * browsers, and is left alone), set by @fastify/helmet:
 * Content-Security-Policy (above), X-Content-Type-Options: nosniff, Referrer-Policy:
 * strict-origin-when-cross-origin (other sites never see a path or query, such as a reset link's token),
 * X-Frame-Options for browsers without frame-ancestors (only while no portal may frame the console),
 * Cross-Origin-Opener-Policy allowing the sign-in popups, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, Origin-Agent-Cluster. Not set: Strict-Transport-Security (the
 * TLS-terminating proxy decides, a plain-HTTP LAN install must keep working), upgrade-insecure-requests
 * (same reason), Cross-Origin-Embedder-Policy and -Resource-Policy (remote images, portals on other
 * origins).
 */
export async function registerSecurityHeaders(
  fastify: FastifyInstance,
  frameAncestors: readonly string[],
): Promise<void> {
  const nobody = frameAncestors.includes("'none'");
  const options: FastifyHelmetOptions = {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(frameAncestors) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: nobody ? { action: 'deny' } : frameAncestors.length ? false : { action: 'sameorigin' },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: false,
    strictTransportSecurity: false,
  };
  await fastify.register(fastifyHelmet, options);
  // Management API answers are per caller (balances, keys, logs): no browser or proxy may keep them.
  fastify.addHook('onSend', (req, reply, payload, done) => {
    if (
      !reply.hasHeader('cache-control') &&
      isApiPath(req.url) &&
      /json/i.test(String(reply.getHeader('content-type') ?? ''))
    )
      void reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
