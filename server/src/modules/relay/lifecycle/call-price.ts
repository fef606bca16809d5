/**
 * What a call's body says about its price: the fixed charge of fixed-price models (images by count, size
 * and quality), the most tokens it asks for, and the SDK family of its caller (logged with the charge).
 */
import { clampQuota, fixedQuota } from '../../billing';
import type { RelayContext } from '../relay-context';
import type { JsonObject } from '../types';

/** The SDK family of a caller, from its User-Agent (the upstream detection view groups logs by it). */
export function clientType(userAgent: string): string {
  if (/^OpenAI\/JS/i.test(userAgent)) return 'openai-node';
  if (/^OpenAI\/Python/i.test(userAgent)) return 'openai-python';
  if (/^Anthropic\//i.test(userAgent)) return 'anthropic';
  if (/^curl\//i.test(userAgent)) return 'curl';
  return 'other';
}

/** The whole charge of a fixed-price call: per image (n, size and quality) for image generation. */
export function fixedCharge(ctx: RelayContext): number {
  const one = fixedQuota(ctx.price);
  if (ctx.req.mode !== 'images' && ctx.req.mode !== 'image-edits') return one;
  const raw = ctx.req.body?.n;
  const n =
    typeof raw === 'number'
      ? Math.min(Math.max(1, Math.floor(raw)), 128)
      : typeof raw === 'string' && /^\d{1,3}$/.test(raw)
        ? Math.min(Math.max(1, Number(raw)), 128)
        : 1;
  return clampQuota(one * n * imageSizeRatio(ctx.req.body));
}

/** DALL·E size and quality multipliers of a fixed image price. */
function imageSizeRatio(body: JsonObject | null): number {
  const size = typeof body?.size === 'string' ? body.size : '1024x1024';
  const hd = body?.quality === 'hd' || body?.quality === 'high';
  const big = size === '1792x1024' || size === '1024x1792' || size === '1536x1024' || size === '1024x1536';
  return (big ? 2 : 1) * (hd ? 2 : 1);
}

/** The output limit the body names in any of the three formats (0 when none). */
export function maxTokensOf(body: JsonObject | null): number {
  if (!body) return 0;
  for (const k of ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const) {
    const v = body[k];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.min(v, 10_000_000);
  }
  const gc = body.generationConfig;
  if (gc && typeof gc === 'object' && !Array.isArray(gc) && typeof gc.maxOutputTokens === 'number')
    return Math.min(Math.max(0, gc.maxOutputTokens), 10_000_000);
  return 0;
}
