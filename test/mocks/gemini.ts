/**
 * Gemini (Generative Language API v1beta) wire format: errors, generate/stream, embeddings, models.
 * Image output: a request whose generationConfig.responseModalities holds "IMAGE" is refused with
 * 400 INVALID_ARGUMENT unless the model is an image model (its name contains "image"); an image model
 * then answers its text followed by one inlineData PNG part (streamed: as the last event).
 */
import {
  lastUser,
  MockUsage,
  parseDirectives,
  replyPieces,
  textOf,
  TOOL_ARGUMENTS,
  usageOf,
} from './directives';
import { Ctx, defaultErrorMessage, ErrorWriter, Exchange, sseData } from './exchange';
import { embeddingVector } from './openai-media';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export const geminiError: ErrorWriter = (ex, status, message) => {
  const name = STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
  ex.json(status, { error: { code: status, message: message ?? defaultErrorMessage(status), status: name } });
};

function invalid(ex: Exchange, message: string): void {
  geminiError(ex, 400, message);
}

interface GeminiContent {
  role?: string;
  parts?: unknown;
}

function usageMetadata(u: MockUsage, candidates: number): Record<string, unknown> {
  const prompt = u.prompt + u.cacheRead;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates,
    ...(u.cacheRead ? { cachedContentTokenCount: u.cacheRead } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    ...(u.cacheRead ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: u.cacheRead }] } : {}),
  };
}

/** The image every image-model answer carries (a 1×1 PNG). */
export const MOCK_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const IMAGE_PIECE = '\u0000image';

/** POST /v1beta/models/{model}:generateContent and :streamGenerateContent (alt=sse, or a JSON array). */
export async function generateContent(ctx: Ctx, stream: boolean): Promise<void> {
  const { ex, body } = ctx;
  if (!Array.isArray(body.contents) || body.contents.length === 0) {
    return invalid(ex, '* GenerateContentRequest.contents: contents is not specified\n');
  }
  const last = lastUser(body.contents, (r) => r === 'user' || r === undefined);
  const d = parseDirectives(textOf(last?.parts));
  if (await ex.gate(d, geminiError)) return;
  const model = ctx.pathModel ?? '';
  const config = (body.generationConfig ?? {}) as { responseModalities?: unknown };
  const wantsImage = Array.isArray(config.responseModalities) && config.responseModalities.includes('IMAGE');
  if (wantsImage && !model.includes('image')) {
    return invalid(ex, 'Model does not support the requested response modalities: image');
  }
  const text = d.tool ? [''] : replyPieces(d);
  const usage = usageOf(d, d.tool ? 2 : text.length);
  const pieces = wantsImage && !d.tool ? [...text, IMAGE_PIECE] : text;
  const chunk = (part: object, index: number) => {
    const final = index === pieces.length - 1;
    const candidates = usage
      ? final
        ? usage.completion
        : Math.floor((usage.completion * (index + 1)) / pieces.length)
      : 0;
    return {
      candidates: [
        {
          content: { parts: [part] as object[], role: 'model' },
          ...(final ? { finishReason: 'STOP' } : {}),
          index: 0,
        },
      ],
      ...(usage ? { usageMetadata: usageMetadata(usage, candidates) } : {}),
      modelVersion: model,
      responseId: `mock-${ctx.n}`,
    };
  };
  const part = (p: string) =>
    d.tool
      ? { functionCall: { name: d.tool, args: TOOL_ARGUMENTS } }
      : p === IMAGE_PIECE
        ? { inlineData: { mimeType: 'image/png', data: MOCK_PNG_BASE64 } }
        : { text: p };

  if (!stream) {
    if (!(await ex.beforeAnswer(d))) return;
    const answer = chunk(part(text.join('')), pieces.length - 1);
    if (pieces.length > text.length) answer.candidates[0].content.parts.push(part(IMAGE_PIECE));
    return ex.json(200, answer);
  }
  const sse = ctx.record.query.alt === 'sse';
  ex.begin(sse ? 'text/event-stream' : 'application/json; charset=UTF-8');
  if (!sse) ex.write('[');
  // Gemini separates its events with CRLF pairs; the JSON-array form puts ",\r\n" between elements.
  const write = (p: string, i: number) =>
    ex.write(
      sse
        ? sseData(chunk(part(p), i), '\r\n')
        : `${i === 0 ? '' : ',\r\n'}${JSON.stringify(chunk(part(p), i))}`,
    );
  if (!(await ex.stream(pieces, d, write))) return;
  if (!sse) ex.write(']');
  ex.end();
}

function embedText(request: unknown): string {
  return textOf((request as { content?: GeminiContent } | null)?.content?.parts);
}

function embedding(request: unknown): { values: number[] } {
  const dims = (request as { outputDimensionality?: unknown } | null)?.outputDimensionality;
  return { values: embeddingVector(embedText(request), typeof dims === 'number' ? dims : 768) };
}

/** POST :embedContent and :batchEmbedContents. */
export async function embed(ctx: Ctx, batch: boolean): Promise<void> {
  const { ex, body } = ctx;
  const requests: unknown[] = batch ? body.requests : [body];
  if (!Array.isArray(requests))
    return invalid(ex, '* BatchEmbedContentsRequest.requests: requests is not specified\n');
  if (!batch && !body.content)
    return invalid(ex, '* EmbedContentRequest.content: content is not specified\n');
  const d = parseDirectives(requests.map(embedText).join('\n'));
  if (await ex.gate(d, geminiError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  ex.json(200, batch ? { embeddings: requests.map(embedding) } : { embedding: embedding(body) });
}

/** POST :countTokens: a deterministic count (a quarter of the counted JSON's length). */
export function countTokens(ctx: Ctx): void {
  const { ex, body } = ctx;
  const request = (body.generateContentRequest ?? { contents: body.contents }) as { contents?: unknown };
  if (!Array.isArray(request.contents))
    return invalid(ex, '* CountTokensRequest.contents: contents is not specified\n');
  ex.json(200, { totalTokens: Math.ceil(JSON.stringify(request).length / 4) });
}

function modelInfo(id: string): Record<string, unknown> {
  const embedder = id.includes('embedding');
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    description: `Mock of ${id}`,
    inputTokenLimit: embedder ? 2048 : 1_048_576,
    outputTokenLimit: embedder ? 1 : 8192,
    supportedGenerationMethods: embedder ? ['embedContent'] : ['generateContent', 'countTokens'],
    ...(embedder ? {} : { temperature: 1, topP: 0.95, topK: 40, maxTemperature: 2 }),
  };
}

/** GET /v1beta/models and /v1beta/models/{model}. */
export function geminiModels(ctx: Ctx): void {
  if (!ctx.pathModel) return ctx.ex.json(200, { models: ctx.models.map(modelInfo) });
  if (!ctx.models.includes(ctx.pathModel))
    return geminiError(ctx.ex, 404, `models/${ctx.pathModel} is not found`);
  ctx.ex.json(200, modelInfo(ctx.pathModel));
}
