/**
 * The Gemini thinking adapter, driven by the model name's suffix when the setting is on:
 *  - `<model>-thinking`: thoughts included, budget = maxOutputTokens × the budget percentage (none
 *    when maxOutputTokens is unset, letting the model decide);
 *  - `<model>-thinking-<n>`: thoughts included, budget n;
 *  - `<model>-nothinking`: budget 0 (thinking off).
 * A budget above 24576 (the largest Gemini accepts on every thinking model) is left out.
 */
import type { AdapterSettings } from '../../types';
import type { JsonRecord } from '../util';

export const MAX_THINKING_BUDGET = 24576;

export interface GeminiThinking {
  /** The model to call upstream. */
  model: string;
  /** generationConfig.thinkingConfig to set, or null to leave the body alone. */
  thinkingConfig: JsonRecord | null;
}

export function geminiThinking(
  model: string,
  maxOutputTokens: number | undefined,
  settings: AdapterSettings,
): GeminiThinking {
  if (!settings.geminiThinkingAdapterEnabled) return { model, thinkingConfig: null };

  const off = /^(.+)-nothinking$/.exec(model);
  if (off) return { model: off[1], thinkingConfig: { thinkingBudget: 0 } };

  const on = /^(.+)-thinking(?:-(\d+))?$/.exec(model);
  if (!on) return { model, thinkingConfig: null };

  const budget =
    on[2] !== undefined
      ? Number(on[2])
      : maxOutputTokens !== undefined
        ? Math.floor(maxOutputTokens * settings.geminiThinkingBudgetPercentage)
        : undefined;
  const thinkingConfig: JsonRecord = { includeThoughts: true };
  if (budget !== undefined && budget <= MAX_THINKING_BUDGET) thinkingConfig.thinkingBudget = budget;
  return { model: on[1], thinkingConfig };
}
