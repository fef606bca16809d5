/**
 * Model names on Vertex AI. Claude models are versioned with "@": an Anthropic name
 * "claude-…-YYYYMMDD" becomes "claude-…@YYYYMMDD" (claude-3-5-sonnet-20241022 is
 * "claude-3-5-sonnet-v2@20241022"); names already holding "@", and undated aliases, pass through.
 */

export function isClaudeModel(model: string): boolean {
  return model.startsWith('claude-');
}

const SPECIAL: Record<string, string> = {
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
};

export function vertexClaudeModelId(model: string): string {
  if (model.includes('@')) return model;
  return SPECIAL[model] ?? model.replace(/-(\d{8})$/, '@$1');
}
