/**
 * The Claude thinking adapter: a model named `<model>-thinking` is served by `<model>` with extended
 * thinking on, its budget a share of max_tokens. Anthropic refuses temperature, top_p and top_k
 * changes alongside thinking, so those are dropped.
 */
import type { AdapterSettings, JsonObject } from '../../types';
import { isObj } from '../util';

const SUFFIX = '-thinking';
/** Anthropic's smallest accepted thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/** The upstream model: the `-thinking` suffix stripped when the adapter is on, else unchanged. */
export function claudeUpstreamModel(model: string, settings: AdapterSettings): string {
  return settings.claudeThinkingAdapterEnabled && model.endsWith(SUFFIX) && model.length > SUFFIX.length
    ? model.slice(0, -SUFFIX.length)
    : model;
}

/**
 * Turns thinking on in `body` (whose max_tokens is set). A budget computed below Anthropic's minimum
 * is raised to it; a client-supplied `thinking` block is kept as is.
 */
export function applyClaudeThinking(body: JsonObject, maxTokens: number, percentage: number): JsonObject {
  const out: JsonObject = { ...body };
  delete out.temperature;
  delete out.top_p;
  delete out.top_k;
  if (!isObj(body.thinking)) {
    const budget = Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens * percentage));
    out.thinking = { type: 'enabled', budget_tokens: budget };
  }
  return out;
}
