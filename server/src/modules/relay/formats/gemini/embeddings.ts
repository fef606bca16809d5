/**
 * OpenAI embeddings ⇄ Gemini embedContent / batchEmbedContents.
 *
 * OpenAI:  POST /v1/embeddings {model, input: string | string[], dimensions?}
 *          → {object: "list", data: [{object: "embedding", index, embedding: number[]}], model, usage}
 * Gemini:  POST /models/<m>:batchEmbedContents {requests: [{model: "models/<m>", content: {parts: [{text}]},
 *          outputDimensionality?}]} → {embeddings: [{values: number[]}]}
 *          POST /models/<m>:embedContent {content, outputDimensionality?} → {embedding: {values}}
 *
 * Embeddings are always float arrays (a base64 encoding_format is the caller's business); token-array
 * inputs cannot be detokenized and are sent as their JSON text.
 */
import type { Json, JsonObject } from '../../types';
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
