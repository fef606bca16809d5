/**
 * Reasoning controls per provider.
 *
 * - Model suffixes: `<model>-minimal|-low|-medium|-high|-xhigh` is served by `<model>` with that
 *   reasoning effort: OpenAI chat `reasoning_effort`, Responses `reasoning.effort`, Anthropic extended
 *   thinking with the budget below (max_tokens raised above it when needed), Gemini
 *   `thinkingConfig.thinkingBudget`.
 * - A `reasoning_effort` that came from another format (Claude Code's thinking, a Gemini thinking
 *   budget) is kept for OpenAI-format models that reason (`relay.reasoning_models`, name prefixes) and
 *   left out for the others, which refuse it; on Anthropic channels it becomes extended thinking.
 */
import type { JsonObject, WireFormat } from '../types';
import { asObject, num, str } from './json';

export type Effort = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

const SUFFIX = /^(.+)-(minimal|low|medium|high|xhigh)$/;

/** Anthropic thinking budgets (budget_tokens; Anthropic's minimum is 1024). */
export const CLAUDE_THINKING_BUDGET: Readonly<Record<Effort, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
};
/** Gemini thinking budgets (thinkingBudget). */
export const GEMINI_THINKING_BUDGET: Readonly<Record<Effort, number>> = {
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
};

/** `gpt-5-high` → {model: 'gpt-5', effort: 'high'}; a model without a suffix is returned as it is. */
export function effortSuffix(model: string): { model: string; effort: Effort | null } {
  const m = SUFFIX.exec(model);
  return m ? { model: m[1], effort: m[2] as Effort } : { model, effort: null };
}

/** Whether an OpenAI-format model reasons (accepts reasoning_effort): its name starts with a listed prefix. */
export function isReasoningModel(model: string, prefixes: readonly string[]): boolean {
  const name = model.toLowerCase().replace(/^.*\//, '');
  return prefixes.some((p) => typeof p === 'string' && p !== '' && name.startsWith(p.toLowerCase()));
}

/**
 * Sets `effort` on a body in the channel's format (`responses` for a native Responses call).
 * `defaultMaxTokens` is the Anthropic max_tokens used when the body has none.
 */
export function applyEffort(
  format: WireFormat,
  body: JsonObject,
  effort: Effort,
  defaultMaxTokens: number,
): JsonObject {
  switch (format) {
    case 'responses':
      return { ...body, reasoning: { ...asObject(body.reasoning), effort } };
    case 'anthropic': {
      const budget = CLAUDE_THINKING_BUDGET[effort];
      const maxTokens = Math.max(num(body.max_tokens) ?? defaultMaxTokens, budget + 1024);
      const out: JsonObject = {
        ...body,
        max_tokens: maxTokens,
        thinking: { type: 'enabled', budget_tokens: budget },
      };
      // Extended thinking refuses a changed temperature, top_p or top_k.
      delete out.temperature;
      delete out.top_p;
      delete out.top_k;
      return out;
    }
    case 'gemini': {
      const config = asObject(body.generationConfig);
      return {
        ...body,
        generationConfig: {
          ...config,
          thinkingConfig: {
            ...asObject(config.thinkingConfig),
            thinkingBudget: GEMINI_THINKING_BUDGET[effort],
            includeThoughts: true,
          },
        },
      };
    }
    default:
      return { ...body, reasoning_effort: effort };
  }
}

/** The effort a hub body asks for (reasoning_effort), when it is one of the known levels. */
export function hubEffort(hub: JsonObject): Effort | null {
  const e = str(hub.reasoning_effort);
  return e === 'minimal' || e === 'low' || e === 'medium' || e === 'high' || e === 'xhigh' ? e : null;
}
