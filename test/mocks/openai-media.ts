/** OpenAI wire format beyond text generation: embeddings, images, audio, moderations, rerank, models. */
import { parseDirectives, replyPieces, textOf, usageOf } from './directives';
import { CREATED, Ctx } from './exchange';
import { invalidRequest, openaiError } from './openai';

/** A 1x1 transparent PNG, the image every image endpoint returns. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A deterministic vector of `dims` values that float32 represents exactly (multiples of 1/1024). */
export function embeddingVector(seed: string, dims: number): number[] {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) % 1_000_003;
  return Array.from({ length: dims }, (_, i) => Math.round(Math.sin(h + i) * 1024) / 1024);
}

export async function embeddings(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (body.input === undefined || body.input === null) {
    return invalidRequest(ex, "Missing required parameter: 'input'.", 'input');
  }
  const single = !Array.isArray(body.input) || (body.input.length > 0 && typeof body.input[0] === 'number');
  const inputs: unknown[] = single ? [body.input] : body.input;
  const d = parseDirectives(inputs.filter((s) => typeof s === 'string').join('\n'));
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const dims = typeof body.dimensions === 'number' ? body.dimensions : 1536;
  const data = inputs.map((input, index) => {
    const vector = embeddingVector(JSON.stringify(input), dims);
    const embedding =
      body.encoding_format === 'base64'
        ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
        : vector;
    return { object: 'embedding', index, embedding };
  });
  const usage = usageOf(d, 0);
  ex.json(200, {
    object: 'list',
    data,
    model: ctx.pathModel ?? body.model,
    ...(usage ? { usage: { prompt_tokens: usage.prompt, total_tokens: usage.prompt } } : {}),
  });
}

/** POST /v1/images/generations (JSON) and /v1/images/edits (multipart). */
export async function images(ctx: Ctx): Promise<void> {
  const { ex } = ctx;
  const multipart = ctx.record.multipart;
  const params: Record<string, unknown> = multipart?.fields ?? ctx.body;
  if (typeof params.prompt !== 'string')
    return invalidRequest(ex, "Missing required parameter: 'prompt'.", 'prompt');
  if (multipart && !multipart.files.some((f) => f.field === 'image' || f.field === 'image[]')) {
    return invalidRequest(ex, "Missing required parameter: 'image'.", 'image');
  }
  const d = parseDirectives(params.prompt);
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const count = Number(params.n ?? 1);
  const model = ctx.pathModel ?? (typeof params.model === 'string' ? params.model : 'dall-e-2');
  const gptImage = model.startsWith('gpt-image');
  const b64 = gptImage || params.response_format === 'b64_json';
  const data = Array.from({ length: count }, (_, i) => ({
    ...(b64
      ? { b64_json: PNG.toString('base64') }
      : { url: `${ctx.baseUrl}/files/image-mock-${ctx.n}-${i}.png` }),
    ...(model === 'dall-e-3' ? { revised_prompt: params.prompt } : {}),
  }));
  const usage = gptImage ? usageOf(d, 272 * count) : null;
  ex.json(200, {
    created: CREATED,
    data,
    ...(usage
      ? {
          usage: {
            total_tokens: usage.prompt + usage.completion,
            input_tokens: usage.prompt,
            output_tokens: usage.completion,
            input_tokens_details: { text_tokens: usage.prompt, image_tokens: 0 },
          },
        }
      : {}),
  });
}

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** Deterministic bytes that start like an MP3 file (ID3 tag), longer for longer input. */
export function fakeAudio(length: number): Buffer {
  const bytes = Buffer.alloc(1024 + 32 * length);
  Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1').copy(bytes);
  for (let i = 10; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
  return bytes;
}

export async function speech(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.input !== 'string')
    return invalidRequest(ex, "Missing required parameter: 'input'.", 'input');
  if (typeof body.voice !== 'string')
    return invalidRequest(ex, "Missing required parameter: 'voice'.", 'voice');
  const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
  const type = AUDIO_TYPES[format];
  if (!type) return invalidRequest(ex, `Invalid value: '${format}'.`, 'response_format');
  const d = parseDirectives(body.input);
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  ex.send(200, fakeAudio(body.input.length), { 'content-type': type });
}

function timestamp(seconds: number, separator: ',' | '.'): string {
  const hms = new Date(seconds * 1000).toISOString().slice(11, 19);
  return `${hms}${separator}000`;
}

/** POST /v1/audio/transcriptions and /v1/audio/translations (multipart). */
export async function audioText(ctx: Ctx, task: 'transcribe' | 'translate'): Promise<void> {
  const { ex } = ctx;
  const multipart = ctx.record.multipart;
  if (!multipart) return invalidRequest(ex, 'Expected a multipart/form-data body.');
  const file = multipart.files.find((f) => f.field === 'file');
  if (!file) return invalidRequest(ex, "Missing required parameter: 'file'.", 'file');
  const model = ctx.pathModel ?? multipart.fields.model;
  if (!model) return invalidRequest(ex, 'you must provide a model parameter', 'model');
  const format = multipart.fields.response_format ?? 'json';
  if (!['json', 'text', 'srt', 'verbose_json', 'vtt'].includes(format)) {
    return invalidRequest(ex, `Invalid value: '${format}'.`, 'response_format');
  }
  const d = parseDirectives(multipart.fields.prompt ?? '');
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const pieces = replyPieces(d);
  const text = pieces.join('');
  const seconds = Math.max(1, Math.round(file.size / 16_000));
  const u = usageOf(d, pieces.length);
  const usage = !u
    ? undefined
    : model.startsWith('whisper')
      ? { type: 'duration', seconds }
      : {
          type: 'tokens',
          input_tokens: u.prompt,
          input_token_details: { text_tokens: 0, audio_tokens: u.prompt },
          output_tokens: u.completion,
          total_tokens: u.prompt + u.completion,
        };
  const plain = { 'content-type': 'text/plain; charset=utf-8' };
  switch (format) {
    case 'text':
      return ex.send(200, `${text}\n`, plain);
    case 'srt':
      return ex.send(200, `1\n${timestamp(0, ',')} --> ${timestamp(seconds, ',')}\n${text}\n\n`, plain);
    case 'vtt':
      return ex.send(
        200,
        `WEBVTT\n\n${timestamp(0, '.')} --> ${timestamp(seconds, '.')}\n${text}\n\n`,
        plain,
      );
    case 'verbose_json': {
      const segment = {
        id: 0,
        seek: 0,
        start: 0,
        end: seconds,
        text,
        tokens: [50364],
        temperature: 0,
        avg_logprob: -0.25,
        compression_ratio: 1,
        no_speech_prob: 0.01,
      };
      return ex.json(200, { task, language: 'english', duration: seconds, text, segments: [segment], usage });
    }
    default:
      return ex.json(200, { text, usage });
  }
}

const MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/instructions',
  'self-harm/intent',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
];

export async function moderations(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (body.input === undefined || body.input === null) {
    return invalidRequest(ex, "Missing required parameter: 'input'.", 'input');
  }
  // A list of strings is several inputs; a list of typed parts is one multimodal input.
  const inputs: unknown[] =
    Array.isArray(body.input) && body.input.every((i: unknown) => typeof i === 'string')
      ? body.input
      : [body.input];
  const d = parseDirectives(inputs.map(textOf).join('\n'));
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const each = <T>(value: T) => Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, value]));
  const results = inputs.map(() => ({
    flagged: false,
    categories: each(false),
    category_scores: each(0.0001),
    category_applied_input_types: each(['text']),
  }));
  ex.json(200, { id: `modr-mock-${ctx.n}`, model: body.model ?? 'omni-moderation-latest', results });
}

/** POST /v1/rerank, Jina style (what one-api style gateways speak). */
export async function rerank(ctx: Ctx): Promise<void> {
  const { ex, body } = ctx;
  if (typeof body.query !== 'string')
    return invalidRequest(ex, "Missing required parameter: 'query'.", 'query');
  if (!Array.isArray(body.documents)) {
    return invalidRequest(ex, "Missing required parameter: 'documents'.", 'documents');
  }
  const d = parseDirectives(body.query);
  if (await ex.gate(d, ctx.writeError ?? openaiError)) return;
  if (!(await ex.beforeAnswer(d))) return;
  const docs = (body.documents as unknown[]).map((doc) => (typeof doc === 'string' ? doc : textOf([doc])));
  const all = docs.map((text, index) => ({
    index,
    relevance_score: Math.round(10_000 / (index + 1)) / 10_000,
    ...(body.return_documents === false ? {} : { document: { text } }),
  }));
  const results = typeof body.top_n === 'number' ? all.slice(0, body.top_n) : all;
  const usage = usageOf(d, 0);
  ex.json(200, {
    model: ctx.pathModel ?? body.model,
    ...(usage ? { usage: { prompt_tokens: usage.prompt, total_tokens: usage.prompt } } : {}),
    results,
  });
}

export function openaiModels(ctx: Ctx): void {
  ctx.ex.json(200, {
    object: 'list',
    data: ctx.models.map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'mock' })),
  });
}
