/**
 * OpenAI embeddings ⇄ Gemini embedContent / batchEmbedContents.
 *
 * OpenAI:  POST /v1/embeddings {model, input: string | string[], dimensions?}
 *          → {object: "list", data: [{object: "embedding", index, embedding: number[]}], model, usage}
 * Gemini:  POST /models/<m>:batchEmbedContents {requests: [{model: "models/<m>", content: {parts: [{text}]},
 *          outputDimensionality?}]} → {embeddings: [{values: number[]}]}
 *          POST /models/<m>:embedContent {content, outputDimensionality?} → {embedding: {values}}
 *
 * Gemini answers float arrays; an OpenAI caller that asked for `encoding_format: "base64"` gets them
 * encoded as OpenAI does. Token-array inputs cannot be detokenized and are sent as their JSON text.
 */
import type { Json, JsonObject, WireFormat } from '../../types';
import { asObject, isArray, num, objects, pick, str, type JsonMap } from './json';

function modelPath(model: string): string {
  return model.startsWith('models/') ? model : `models/${model}`;
}

function inputTexts(input: Json | undefined): string[] {
  if (typeof input === 'string') return [input];
  if (!isArray(input)) return [];
  // An array of numbers is one tokenized input, an array of strings (or of token arrays) several.
  if (input.length > 0 && input.every((v) => typeof v === 'number')) return [JSON.stringify(input)];
  return input.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

/** OpenAI embeddings request → Gemini batchEmbedContents body (`model` is the upstream model name). */
export function openAIEmbeddingsToGeminiRequest(body: JsonObject, model: string): JsonMap {
  const dimensions = num(body.dimensions);
  const requests = inputTexts(body.input).map((text) => {
    const request: JsonMap = { model: modelPath(model), content: { parts: [{ text }] } };
    if (dimensions !== undefined) request.outputDimensionality = dimensions;
    return request;
  });
  return { requests };
}

function partsText(content: Json | undefined): string {
  return objects(asObject(content).parts)
    .map((p) => str(p.text) ?? '')
    .join('');
}

/**
 * Inbound Gemini embedContent or batchEmbedContents body → OpenAI embeddings request. The
 * dimensions of the first request apply to all (OpenAI has one per call).
 */
export function geminiEmbedToOpenAIRequest(body: JsonObject, model: string): JsonMap {
  const requests = isArray(body.requests) ? objects(body.requests) : [body];
  const out: JsonMap = { model, input: requests.map((r) => partsText(r.content)) };
  const dimensions = requests.map((r) => num(pick(r, 'outputDimensionality'))).find((d) => d !== undefined);
  if (dimensions !== undefined) out.dimensions = dimensions;
  return out;
}

/**
 * Gemini embedContent ({embedding}) or batchEmbedContents ({embeddings}) answer → OpenAI embeddings
 * answer. Gemini reports no token count; pass the caller's estimate as `promptTokens`.
 */
export function geminiEmbedToOpenAIResponse(body: JsonObject, model: string, promptTokens = 0): JsonMap {
  const embeddings = isArray(body.embeddings) ? objects(body.embeddings) : [asObject(body.embedding)];
  const data = embeddings.map((e, index) => ({
    object: 'embedding',
    index,
    embedding: isArray(e.values) ? e.values : [],
  }));
  const tokens = num(asObject(body.usageMetadata).promptTokenCount) ?? promptTokens;
  return { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

/**
 * OpenAI embeddings answer → Gemini batchEmbedContents answer, or embedContent's {embedding} when
 * `single` (the client called embedContent).
 */
export function openAIEmbeddingsToGeminiResponse(body: JsonObject, opts: { single?: boolean } = {}): JsonMap {
  const data = objects(body.data).sort((a, b) => (num(a.index) ?? 0) - (num(b.index) ?? 0));
  const embeddings = data.map((d) => ({ values: isArray(d.embedding) ? d.embedding : [] }));
  if (opts.single) return { embedding: embeddings[0] ?? { values: [] } };
  return { embeddings };
}

/**
 * An embeddings request in the caller's format (`from`) as the channel's (`to`): OpenAI ⇄ Gemini
 * converted, anything else as it is. `model` is the upstream model name.
 */
export function embeddingsRequestFor(
  from: WireFormat,
  to: WireFormat,
  body: JsonObject,
  model: string,
): JsonObject {
  if (from === 'openai' && to === 'gemini') return openAIEmbeddingsToGeminiRequest(body, model);
  if (from === 'gemini' && to === 'openai') return geminiEmbedToOpenAIRequest(body, model);
  return body;
}

/**
 * A channel's embeddings answer (in `from`) as the caller's (`to`). A Gemini caller of embedContent
 * (a body without `requests`) gets `{embedding}`, of batchEmbedContents `{embeddings}`; an OpenAI
 * caller of a Gemini channel gets `usage` from `promptTokens` (Gemini reports none).
 */
export function embeddingsAnswerFor(
  from: WireFormat,
  to: WireFormat,
  answer: JsonObject,
  request: JsonObject,
  model: string,
  promptTokens: () => number,
): JsonObject {
  const single = to === 'gemini' && !isArray(request.requests);
  if (from === 'gemini' && to === 'openai') {
    const out = geminiEmbedToOpenAIResponse(answer, model, promptTokens());
    // The OpenAI SDKs ask for base64 by default: little-endian float32, as OpenAI encodes it.
    if (request.encoding_format === 'base64')
      for (const item of objects(out.data))
        if (isArray(item.embedding)) item.embedding = float32Base64(item.embedding);
    return out;
  }
  if (from === 'openai' && to === 'gemini') return openAIEmbeddingsToGeminiResponse(answer, { single });
  if (from === 'gemini' && single && isArray(answer.embeddings))
    return { embedding: answer.embeddings[0] ?? { values: [] } };
  return answer;
}

function float32Base64(values: Json[]): string {
  const floats = new Float32Array(values.map((v) => (typeof v === 'number' ? v : 0)));
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}
