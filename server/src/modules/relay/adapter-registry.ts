import { adapterFor } from './adapters';
import { baiduLegacyAdapter } from './adapters/baidu-legacy';
import { createBedrockAdapter } from './adapters/bedrock';
import { createTencentAdapter } from './adapters/tencent';
import { vertexAdapterFor } from './adapters/vertex';
import { createZhipuLegacyAdapter } from './adapters/zhipu-legacy';
import { sparkAdapter } from './upstream/spark-transport';
import type { ProviderAdapter } from './types';

/** Adapters that sign requests take the wall clock here; their tests inject a fixed one. */
const SIGNED: Readonly<Record<number, ProviderAdapter>> = {
  15: baiduLegacyAdapter,
  16: createZhipuLegacyAdapter(),
  23: createTencentAdapter(),
  33: createBedrockAdapter(),
  18: sparkAdapter,
};

/**
 * The adapter serving `model` on a channel of `type`. Most types have one adapter; Vertex AI (41)
 * speaks Gemini or Anthropic depending on the model. iFlytek Spark (18) is a websocket API: its
 * adapter only declares the transport, and relay.service talks to it through ./upstream/spark-transport.
 */
export function adapterForChannel(type: number, model: string): ProviderAdapter | null {
  if (type === 41) return vertexAdapterFor(model);
  return SIGNED[type] ?? adapterFor(type);
}
