/**
 * Fields a conversion between wire formats cannot carry. A request holding one is refused with a
 * 400 naming the field (on a channel that would need the conversion) rather than sent without it.
 */
import type { JsonObject, WireFormat } from '../types';
import { asObject, objects, str } from './json';

/** Responses features that live on OpenAI's servers (state, background runs, built-in tools). */
function responsesOnly(body: JsonObject): string | null {
  if (typeof body.previous_response_id === 'string' && body.previous_response_id !== '')
    return 'previous_response_id';
  if (body.conversation !== undefined && body.conversation !== null) return 'conversation';
  if (body.background === true) return 'background';
  if (body.store === true) return 'store';
  for (const tool of objects(body.tools)) {
    const type = str(tool.type) ?? '';
    if (type !== 'function') return `tools (type "${type}")`;
  }
  return null;
}

/**
 * The first field of `body` (in the caller's format `from`) that a conversion to a channel speaking
 * `to` would drop, or null when everything it asks for can be carried.
 */
export function uncarriedField(from: WireFormat, to: WireFormat, body: JsonObject): string | null {
  if (from === to) return null;
  if (from === 'responses') {
    const field = responsesOnly(body);
    if (field) return field;
  }
  // Anthropic enforces a JSON schema but has no bare JSON mode.
  if (to === 'anthropic') {
    const format =
      from === 'responses' ? asObject(asObject(body.text).format) : asObject(body.response_format);
    if (format.type === 'json_object')
      return from === 'responses' ? 'text.format (json_object)' : 'response_format (json_object)';
    // One answer per call, no token log probabilities.
    if (from === 'openai' && typeof body.n === 'number' && body.n > 1) return 'n (several choices)';
    if (from === 'openai' && body.logprobs === true) return 'logprobs';
    if (from === 'gemini') {
      const count = asObject(body.generationConfig).candidateCount;
      if (typeof count === 'number' && count > 1) return 'generationConfig.candidateCount';
    }
    if (from === 'gemini') {
      const config = asObject(body.generationConfig ?? body.generation_config);
      const mime = config.responseMimeType ?? config.response_mime_type;
      const schema =
        config.responseSchema ??
        config.response_schema ??
        config.responseJsonSchema ??
        config.response_json_schema;
      if (mime === 'application/json' && (schema === undefined || schema === null))
        return 'generationConfig.responseMimeType (JSON without a schema)';
    }
  }
  return null;
}
