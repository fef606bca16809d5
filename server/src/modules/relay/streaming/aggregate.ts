/**
 * Folds a complete upstream event stream (its bytes) into one answer through the adapter's
 * aggregator: used when a non-stream client request was answered with a stream (Dify agent apps).
 */
import type { AdapterRequest, JsonObject, ProviderAdapter } from '../types';
import { createEventDecoder } from './event-decoder';

export function aggregateStream(
  adapter: ProviderAdapter,
  req: AdapterRequest,
  chunks: Iterable<Uint8Array>,
): JsonObject {
  const aggregator = adapter.createStreamAggregator?.(req);
  if (!aggregator) throw new Error(`${adapter.name} has no stream aggregator`);
  const decoder = createEventDecoder(adapter.framing ?? 'sse', (e) => aggregator.push(e));
  for (const chunk of chunks) decoder.feed(chunk);
  decoder.end();
  return aggregator.result();
}
