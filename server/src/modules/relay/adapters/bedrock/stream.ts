/**
 * Bedrock's InvokeModelWithResponseStream → Anthropic SSE events. relay.service decodes the AWS
 * event-stream frames and hands over each message as {event: <:event-type>, data: <payload>}. A
 * "chunk" payload is {"bytes": base64(<one Anthropic stream event JSON>)}; it becomes
 * {event: <that event's type>, data: <the decoded JSON>}. Exception messages (payload {"message"})
 * become an Anthropic `error` event, as Anthropic itself reports errors met mid-stream.
 */
import type { SseEvent, StreamConverter } from '../../types';
import { isObj, parseJson, str } from '../util';
import { sanitizeUpstreamText } from '../../errors';

/** Bedrock exception names → Anthropic error types. */
const ERROR_TYPES: Record<string, string> = {
  throttlingException: 'rate_limit_error',
  serviceUnavailableException: 'overloaded_error',
  modelStreamErrorException: 'api_error',
  internalServerException: 'api_error',
  validationException: 'invalid_request_error',
  modelTimeoutException: 'api_error',
};

export function anthropicErrorEvent(type: string, message: string): SseEvent {
  return {
    event: 'error',
    data: JSON.stringify({ type: 'error', error: { type, message: sanitizeUpstreamText(message) } }),
  };
}

function convert(input: SseEvent): SseEvent[] {
  const payload = parseJson(input.data);
  if (!isObj(payload)) return [];
  const bytes = str(payload.bytes);
  if (bytes !== undefined) {
    const data = Buffer.from(bytes, 'base64').toString('utf8');
    const event = parseJson(data);
    const type = isObj(event) ? str(event.type) : undefined;
    return type ? [{ event: type, data }] : [];
  }
  const message = str(payload.message) ?? str(payload.Message);
  if (message === undefined) return [];
  return [anthropicErrorEvent(ERROR_TYPES[input.event ?? ''] ?? 'api_error', message)];
}

export function createBedrockStreamConverter(): StreamConverter<SseEvent, SseEvent> {
  return { push: convert, end: () => [] };
}
