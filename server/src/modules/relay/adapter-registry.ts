import { adapterFor } from './adapters';
import type { ProviderAdapter } from './types';

/**
 * The adapter serving `model` on a channel of `type`. Most types have one adapter; Vertex AI (41)
 * speaks Gemini or Anthropic depending on the model.
 */
export function adapterForChannel(type: number, _model: string): ProviderAdapter | null {
  return adapterFor(type);
}
