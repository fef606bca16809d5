/**
 * Anthropic model names → Bedrock model ids. Bedrock ids ("anthropic.…", inference profiles such as
 * "us.anthropic.…"/"global.anthropic.…", and ARNs) pass through. Well-known dated names map to their
 * base id; other dated "claude-…-YYYYMMDD" names follow the common "-v1:0" pattern. Models that Bedrock
 * serves on demand only through a cross-region inference profile get the profile prefix of the
 * channel's region (us./eu./apac./us-gov.).
 */

const KNOWN: Record<string, string> = {
  'claude-instant-1.2': 'anthropic.claude-instant-v1',
  'claude-2.0': 'anthropic.claude-v2',
  'claude-2.1': 'anthropic.claude-v2:1',
  'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
  'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
  'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
  'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
  'claude-3-7-sonnet-20250219': 'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'claude-sonnet-4-20250514': 'anthropic.claude-sonnet-4-20250514-v1:0',
  'claude-opus-4-20250514': 'anthropic.claude-opus-4-20250514-v1:0',
  'claude-opus-4-1-20250805': 'anthropic.claude-opus-4-1-20250805-v1:0',
  'claude-sonnet-4-5-20250929': 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  'claude-haiku-4-5-20251001': 'anthropic.claude-haiku-4-5-20251001-v1:0',
  'claude-opus-4-5-20251101': 'anthropic.claude-opus-4-5-20251101-v1:0',
};

/** Base ids that on-demand invocation accepts only through an inference profile. */
const PROFILE_ONLY = new Set([
  'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'anthropic.claude-sonnet-4-20250514-v1:0',
  'anthropic.claude-opus-4-20250514-v1:0',
  'anthropic.claude-opus-4-1-20250805-v1:0',
  'anthropic.claude-sonnet-4-5-20250929-v1:0',
  'anthropic.claude-haiku-4-5-20251001-v1:0',
  'anthropic.claude-opus-4-5-20251101-v1:0',
]);

/** An inference-profile prefix such as "us.", "eu.", "apac.", "us-gov.", "jp.", "au." or "global.". */
const PROFILE_PREFIX = /^[a-z]{2,4}(?:-gov)?\./;

/** The inference-profile geography of a region, or undefined where none is known. */
export function profileGeography(region: string): string | undefined {
  if (region.startsWith('us-gov-')) return 'us-gov';
  if (region.startsWith('us-')) return 'us';
  if (region.startsWith('eu-')) return 'eu';
  if (region.startsWith('ap-')) return 'apac';
  return undefined;
}

export function bedrockModelId(model: string, region: string): string {
  if (model.startsWith('arn:') || model.startsWith('anthropic.') || PROFILE_PREFIX.test(model)) return model;
  const base = KNOWN[model] ?? (/^claude-.+-\d{8}$/.test(model) ? `anthropic.${model}-v1:0` : model);
  const geography = profileGeography(region);
  return PROFILE_ONLY.has(base) && geography ? `${geography}.${base}` : base;
}
