/**
 * Where a Vertex AI model is served. The channel's `other` is a region ("us-east5") or a JSON map of
 * model → region with a "default" entry ({"claude-3-5-sonnet-20241022": "us-east5", "default":
 * "us-central1"}); "global" when nothing is set. The "global" location has no regional host.
 */
import { isObj, parseJson, str } from '../util';

export const DEFAULT_VERTEX_REGION = 'global';

export function vertexRegion(other: string, model: string): string {
  const trimmed = other.trim();
  if (trimmed.startsWith('{')) {
    const map = parseJson(trimmed);
    if (isObj(map)) return str(map[model]) || str(map.default) || DEFAULT_VERTEX_REGION;
  }
  return trimmed || DEFAULT_VERTEX_REGION;
}

/** https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/ */
export function vertexModelsUrl(
  region: string,
  projectId: string,
  publisher: 'anthropic' | 'google',
  baseUrl = '',
): string {
  // A channel base URL (a private endpoint, a proxy) wins over the public host of the region.
  const origin =
    baseUrl ||
    `https://${region === 'global' ? 'aiplatform.googleapis.com' : `${region}-aiplatform.googleapis.com`}`;
  return `${origin}/v1/projects/${projectId}/locations/${region}/publishers/${publisher}/models/`;
}
