/**
 * Gemini generateContent request ⇄ OpenAI chat completions request.
 */
import type { Json, JsonObject } from '../../types';
import {
  argumentsObject,
  asObject,
  contentText,
  isArray,
  isObject,
  num,
  objects,
  parseJson,
  pick,
  str,
  type JsonMap,
} from './json';
import { fromGeminiSchema, toGeminiJsonSchema } from './schema';

/** The harm categories a "default" safety threshold applies to. */
export const GEMINI_HARM_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
] as const;

/**
 * Thought signature Gemini accepts in place of a real one on replayed function calls (history that
 * did not come from Gemini); Gemini 3 rejects function calls without any signature.
 */
export const GEMINI_SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** reasoning_effort → thinkingBudget. */
const EFFORT_BUDGET: Record<string, number> = { none: 0, minimal: 512, low: 1024, medium: 8192, high: 24576 };

// ---------------------------------------------------------------------------------------------
// Gemini → OpenAI
// ---------------------------------------------------------------------------------------------

/** Call ids for Gemini function calls, which usually carry none: `call_<n>`, in order of appearance. */
class CallIds {
  private next = 0;
  private readonly pending = new Map<string, string[]>();

  call(name: string, id: string | undefined): string {
    const callId = id ?? `call_${this.next++}`;
    const queue = this.pending.get(name) ?? [];
    queue.push(callId);
    this.pending.set(name, queue);
    return callId;
  }

  /** The id of the earliest unanswered call of `name` (or the response's own id). */
  response(name: string, id: string | undefined): string {
    const queue = this.pending.get(name) ?? [];
    if (id !== undefined) {
      const at = queue.indexOf(id);
      if (at >= 0) queue.splice(at, 1);
      return id;
    }
    return queue.shift() ?? `call_${this.next++}`;
  }
}

function dataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}

const AUDIO_FORMATS: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/wav': 'wav' };

/** One Gemini part of a user turn as an OpenAI content part (undefined when it has no equivalent). */
function userPartToOpenAI(part: JsonMap): JsonMap | undefined {
  const text = str(part.text);
  if (text !== undefined) return { type: 'text', text };
  const inline = pick(part, 'inlineData');
  if (isObject(inline)) {
    const mimeType = str(pick(inline, 'mimeType')) ?? 'application/octet-stream';
    const data = str(inline.data) ?? '';
    if (mimeType.startsWith('image/')) {
      return { type: 'image_url', image_url: { url: dataUrl(mimeType, data) } };
    }
    if (mimeType.startsWith('audio/')) {
      const format = AUDIO_FORMATS[mimeType] ?? mimeType.slice('audio/'.length);
      return { type: 'input_audio', input_audio: { data, format } };
    }
    const file: JsonMap = { file_data: dataUrl(mimeType, data) };
    const name = str(pick(inline, 'displayName'));
    if (name !== undefined) file.filename = name;
    return { type: 'file', file };
  }
  const fileData = pick(part, 'fileData');
  if (isObject(fileData)) {
    const uri = str(pick(fileData, 'fileUri'));
    if (uri === undefined) return undefined;
    const mimeType = str(pick(fileData, 'mimeType')) ?? guessMimeType(uri);
    if (mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url: uri } };
    // Chat has no file by URL: `file_url` is the hub's own, read by the Anthropic conversion (a
    // document URL); a channel that cannot take it refuses the part before conversion.
    const file: JsonMap = { file_url: uri, mime_type: mimeType };
    const name = str(pick(fileData, 'displayName'));
    if (name !== undefined) file.filename = name;
    return { type: 'file', file };
  }
  return undefined;
}

/** A functionResponse's `response` as tool message content ({content: "text"} unwraps to the text). */
function functionResponseContent(response: Json | undefined): string {
  if (isObject(response)) {
    const keys = Object.keys(response);
    if (keys.length === 1 && typeof response.content === 'string') return response.content;
  }
  return JSON.stringify(response ?? {});
}

function appendUserTurn(messages: JsonMap[], parts: JsonMap[], ids: CallIds): void {
  const content: JsonMap[] = [];
  for (const part of parts) {
    const fr = pick(part, 'functionResponse');
    if (isObject(fr)) {
      const name = str(fr.name) ?? '';
      messages.push({
        role: 'tool',
        tool_call_id: ids.response(name, str(fr.id)),
        content: functionResponseContent(fr.response),
      });
      continue;
    }
    const converted = userPartToOpenAI(part);
    if (converted) content.push(converted);
  }
  if (content.length === 0) return;
  const only = content.length === 1 ? str(content[0].text) : undefined;
  messages.push({ role: 'user', content: only ?? content });
}

function modelMessage(parts: JsonMap[], ids: CallIds): JsonMap | undefined {
  let text = '';
  const toolCalls: JsonMap[] = [];
  for (const part of parts) {
    const fc = pick(part, 'functionCall');
    if (isObject(fc)) {
      const name = str(fc.name) ?? '';
      const call: JsonMap = {
        id: ids.call(name, str(fc.id)),
        type: 'function',
        function: { name, arguments: JSON.stringify(fc.args ?? {}) },
      };
      const signature = str(pick(part, 'thoughtSignature'));
      if (signature !== undefined) call.extra_content = { google: { thought_signature: signature } };
      toolCalls.push(call);
    } else if (part.thought !== true && typeof part.text === 'string') {
      text += part.text;
    }
  }
  if (toolCalls.length === 0 && text === '') return undefined;
  const message: JsonMap = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

function systemText(instruction: Json | undefined): string {
  if (typeof instruction === 'string') return instruction;
  return objects(asObject(instruction).parts)
    .map((p) => str(p.text) ?? '')
    .filter((t) => t !== '')
    .join('\n');
}

function toolsToOpenAI(tools: Json | undefined): JsonMap[] {
  const out: JsonMap[] = [];
  for (const tool of objects(tools)) {
    for (const decl of objects(pick(tool, 'functionDeclarations'))) {
      const fn: JsonMap = { name: str(decl.name) ?? '' };
      const description = str(decl.description);
      if (description !== undefined) fn.description = description;
      const parameters = pick(decl, 'parametersJsonSchema') ?? fromGeminiSchema(decl.parameters);
      if (parameters !== undefined) fn.parameters = parameters;
      out.push({ type: 'function', function: fn });
    }
  }
  return out;
}

function toolChoiceToOpenAI(toolConfig: Json | undefined): Json | undefined {
  const config = asObject(pick(asObject(toolConfig), 'functionCallingConfig'));
  const mode = str(config.mode)?.toUpperCase();
  const allowed = pick(config, 'allowedFunctionNames');
  if (mode === 'NONE') return 'none';
  if (mode === 'ANY') {
    if (isArray(allowed) && allowed.length === 1 && typeof allowed[0] === 'string') {
      return { type: 'function', function: { name: allowed[0] } };
    }
    return 'required';
  }
  if (mode === 'AUTO' || mode === 'VALIDATED') return 'auto';
  return undefined;
}

/** thinkingBudget (or Gemini 3 thinkingLevel) → reasoning_effort. -1 is "dynamic". */
function effortFromThinking(thinking: JsonMap): string | undefined {
  const level = str(pick(thinking, 'thinkingLevel'));
  if (level !== undefined) return level.toLowerCase();
  const budget = num(pick(thinking, 'thinkingBudget'));
  if (budget === undefined) return undefined;
  if (budget === 0) return 'none';
  if (budget < 0) return 'medium';
  if (budget <= 1024) return 'low';
  if (budget <= 8192) return 'medium';
  return 'high';
}

function applyGenerationConfig(out: JsonMap, config: JsonMap): void {
  const numeric: [string, string][] = [
    ['temperature', 'temperature'],
    ['topP', 'top_p'],
    ['topK', 'top_k'],
    ['maxOutputTokens', 'max_tokens'],
    ['candidateCount', 'n'],
    ['presencePenalty', 'presence_penalty'],
    ['frequencyPenalty', 'frequency_penalty'],
    ['seed', 'seed'],
  ];
  for (const [from, to] of numeric) {
    const value = num(pick(config, from));
    if (value !== undefined) out[to] = value;
  }
  const stop = pick(config, 'stopSequences');
  if (isArray(stop) && stop.length > 0) out.stop = stop;
  if (pick(config, 'responseLogprobs') === true) {
    out.logprobs = true;
    const top = num(pick(config, 'logprobs'));
    if (top !== undefined) out.top_logprobs = top;
  }
  const jsonSchema = pick(config, 'responseJsonSchema');
  const schema = isObject(jsonSchema) ? jsonSchema : fromGeminiSchema(pick(config, 'responseSchema'));
  if (schema !== undefined) {
    out.response_format = { type: 'json_schema', json_schema: { name: 'response', schema } };
  } else if (str(pick(config, 'responseMimeType')) === 'application/json') {
    out.response_format = { type: 'json_object' };
  }
  const effort = effortFromThinking(asObject(pick(config, 'thinkingConfig')));
  if (effort !== undefined) out.reasoning_effort = effort;
}

/**
 * Inbound Gemini generateContent body → OpenAI chat request. Function calls get ids `call_<n>` in
 * order of appearance (or their own `id`); a functionResponse answers the earliest unanswered call
 * of its name. Thought parts of model turns are dropped; thought signatures of function calls travel
 * as `tool_calls[].extra_content.google.thought_signature`.
 */
export function geminiToOpenAIRequest(body: JsonObject, model: string, stream: boolean): JsonMap {
  const messages: JsonMap[] = [];
  const system = systemText(pick(body, 'systemInstruction'));
  if (system !== '') messages.push({ role: 'system', content: system });
  const ids = new CallIds();
  for (const content of objects(body.contents)) {
    const parts = objects(content.parts);
    if (str(content.role) === 'model') {
      const message = modelMessage(parts, ids);
      if (message) messages.push(message);
    } else {
      appendUserTurn(messages, parts, ids);
    }
  }
  const out: JsonMap = { model, messages, stream };
  if (stream) out.stream_options = { include_usage: true };
  const tools = toolsToOpenAI(body.tools);
  if (tools.length > 0) out.tools = tools;
  const toolChoice = toolChoiceToOpenAI(pick(body, 'toolConfig'));
  if (toolChoice !== undefined) out.tool_choice = toolChoice;
  applyGenerationConfig(out, asObject(pick(body, 'generationConfig')));
  return out;
}

// ---------------------------------------------------------------------------------------------
// OpenAI → Gemini
// ---------------------------------------------------------------------------------------------

export interface OpenAIToGeminiOptions {
  /**
   * Safety thresholds by harm category. Every category in the map is sent; a "default" key gives the
   * threshold of the standard categories (GEMINI_HARM_CATEGORIES) the map does not list.
   */
  safetySettings?: Record<string, string>;
  /**
   * When set, thinking is enabled with a budget of this share of the output token limit (0.6 or 60
   * both mean 60%), instead of the reasoning_effort table; without a limit the budget is dynamic.
   */
  thinkingBudgetPercentage?: number;
}

/** The safetySettings list of a category → threshold map (see OpenAIToGeminiOptions). */
export function geminiSafetySettings(map: Record<string, string>): JsonMap[] {
  const out: JsonMap[] = [];
  for (const [category, threshold] of Object.entries(map)) {
    if (category !== 'default') out.push({ category, threshold });
  }
  const fallback = map.default;
  if (fallback !== undefined) {
    for (const category of GEMINI_HARM_CATEGORIES) {
      if (map[category] === undefined) out.push({ category, threshold: fallback });
    }
  }
  return out;
}

const EXTENSION_MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  mov: 'video/mov',
  webm: 'video/webm',
  txt: 'text/plain',
};

/** MIME type of a URL from its extension; image/jpeg when unknown. */
export function guessMimeType(url: string): string {
  const path = url.split(/[?#]/, 1)[0];
  const dot = path.lastIndexOf('.');
  const ext = dot >= 0 ? path.slice(dot + 1).toLowerCase() : '';
  return EXTENSION_MIME[ext] ?? 'image/jpeg';
}

/** data:<mime>;base64,<data> → {mimeType, data}; undefined for anything else. */
function parseDataUrl(url: string): { mimeType: string; data: string } | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const meta = url.slice(5, comma);
  if (!meta.endsWith(';base64')) return undefined;
  const mimeType = meta.slice(0, -';base64'.length).split(';', 1)[0] || 'application/octet-stream';
  return { mimeType, data: url.slice(comma + 1) };
}

function urlPart(url: string): JsonMap | undefined {
  const inline = parseDataUrl(url);
  if (inline) return { inlineData: inline };
  if (/^https?:\/\//i.test(url) || url.startsWith('gs://')) {
    return { fileData: { mimeType: guessMimeType(url), fileUri: url } };
  }
  return undefined;
}

function contentToGeminiParts(content: Json | undefined): JsonMap[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const parts: JsonMap[] = [];
  for (const part of objects(content)) {
    const type = str(part.type);
    if (type === 'text' || type === 'input_text') {
      const text = str(part.text);
      if (text) parts.push({ text });
    } else if (type === 'image_url') {
      const image = part.image_url;
      const url = typeof image === 'string' ? image : str(asObject(image).url);
      const converted = url === undefined ? undefined : urlPart(url);
      if (converted) parts.push(converted);
    } else if (type === 'input_audio') {
      const audio = asObject(part.input_audio);
      const data = str(audio.data);
      if (data !== undefined) {
        parts.push({ inlineData: { mimeType: `audio/${str(audio.format) ?? 'wav'}`, data } });
      }
    } else if (type === 'file') {
      const file = asObject(part.file);
      const fileData = str(file.file_data);
      const fileUrl = str(file.file_url);
      if (fileData !== undefined) {
        const converted = urlPart(fileData);
        if (converted) parts.push(converted);
      } else if (fileUrl !== undefined) {
        parts.push({
          fileData: { mimeType: str(file.mime_type) ?? guessMimeType(fileUrl), fileUri: fileUrl },
        });
      }
    }
  }
  return parts;
}

/** Tool message content as a functionResponse `response` (a JSON object, or {content: text}). */
function toolResponse(content: Json | undefined): JsonMap {
  const text = contentText(content);
  const parsed = parseJson(text);
  return isObject(parsed) ? parsed : { content: text };
}

function toolCallSignature(call: JsonMap): string | undefined {
  return str(asObject(asObject(call.extra_content).google).thought_signature);
}

function assistantParts(message: JsonMap, idToName: Map<string, string>): JsonMap[] {
  const parts = contentToGeminiParts(message.content);
  let first = true;
  for (const call of objects(message.tool_calls)) {
    const fn = asObject(call.function);
    const name = str(fn.name) ?? '';
    const id = str(call.id);
    if (id !== undefined) idToName.set(id, name);
    const part: JsonMap = { functionCall: { name, args: argumentsObject(fn.arguments) } };
    const signature = toolCallSignature(call) ?? (first ? GEMINI_SKIP_SIGNATURE : undefined);
    if (signature !== undefined) part.thoughtSignature = signature;
    first = false;
    parts.push(part);
  }
  return parts;
}

/** Gemini rejects an OBJECT schema without properties: a function without parameters sends none. */
function hasParameters(schema: JsonMap): boolean {
  if (schema.type !== undefined && schema.type !== 'object') return true;
  return isObject(schema.properties) && Object.keys(schema.properties).length > 0;
}

function toolsToGemini(tools: Json | undefined): JsonMap[] {
  const declarations: JsonMap[] = [];
  for (const tool of objects(tools)) {
    if (str(tool.type) !== 'function') continue;
    const fn = asObject(tool.function);
    const decl: JsonMap = { name: str(fn.name) ?? '' };
    const description = str(fn.description);
    if (description !== undefined) decl.description = description;
    // As JSON Schema (parametersJsonSchema): Schema's upper-case type enum and its missing
    // additionalProperties would lose what a strict tool forbids.
    const parameters = toGeminiJsonSchema(fn.parameters);
    if (parameters !== undefined && hasParameters(parameters)) decl.parametersJsonSchema = parameters;
    declarations.push(decl);
  }
  return declarations.length > 0 ? [{ functionDeclarations: declarations }] : [];
}

function toolConfigToGemini(choice: Json | undefined): JsonMap | undefined {
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  const name = str(asObject(asObject(choice).function).name);
  if (name !== undefined) return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
  return undefined;
}

function thinkingConfig(
  body: JsonObject,
  maxTokens: number | undefined,
  percentage: number | undefined,
): JsonMap | undefined {
  if (percentage !== undefined && percentage > 0) {
    if (maxTokens === undefined) return { includeThoughts: true };
    const share = percentage > 1 ? percentage / 100 : percentage;
    return { thinkingBudget: Math.floor(maxTokens * share), includeThoughts: true };
  }
  const effort = str(body.reasoning_effort) ?? str(asObject(body.reasoning).effort);
  if (effort === undefined || EFFORT_BUDGET[effort] === undefined) return undefined;
  const budget = EFFORT_BUDGET[effort];
  return budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
}

function generationConfig(body: JsonObject, opts: OpenAIToGeminiOptions): JsonMap {
  const config: JsonMap = {};
  const numeric: [string, string][] = [
    ['temperature', 'temperature'],
    ['top_p', 'topP'],
    ['top_k', 'topK'],
    ['n', 'candidateCount'],
    ['presence_penalty', 'presencePenalty'],
    ['frequency_penalty', 'frequencyPenalty'],
    ['seed', 'seed'],
  ];
  for (const [from, to] of numeric) {
    const value = num(body[from]);
    if (value !== undefined) config[to] = value;
  }
  const maxTokens = num(body.max_completion_tokens) ?? num(body.max_tokens);
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  const stop = body.stop;
  if (typeof stop === 'string') config.stopSequences = [stop];
  else if (isArray(stop) && stop.length > 0) config.stopSequences = stop;
  if (body.logprobs === true) {
    config.responseLogprobs = true;
    const top = num(body.top_logprobs);
    if (top !== undefined) config.logprobs = top;
  }
  const format = asObject(body.response_format);
  if (format.type === 'json_object') {
    config.responseMimeType = 'application/json';
  } else if (format.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    // responseJsonSchema: responseSchema is deprecated and cannot say additionalProperties.
    const schema = toGeminiJsonSchema(asObject(format.json_schema).schema);
    if (schema !== undefined) config.responseJsonSchema = schema;
  }
  const thinking = thinkingConfig(body, maxTokens, opts.thinkingBudgetPercentage);
  if (thinking !== undefined) config.thinkingConfig = thinking;
  return config;
}

/**
 * OpenAI chat request → Gemini generateContent body (the model goes in the URL, not the body).
 * system/developer messages become systemInstruction, assistant turns role "model", tool results
 * functionResponse parts of a user turn; consecutive turns of the same role are merged.
 */
export function openAIToGeminiRequest(body: JsonObject, opts: OpenAIToGeminiOptions = {}): JsonMap {
  const system: JsonMap[] = [];
  const contents: JsonMap[] = [];
  const idToName = new Map<string, string>();
  const append = (role: string, parts: JsonMap[]): void => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last !== undefined && last.role === role && isArray(last.parts)) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of objects(body.messages)) {
    const role = str(message.role);
    if (role === 'system' || role === 'developer') {
      const text = contentText(message.content);
      if (text !== '') system.push({ text });
    } else if (role === 'assistant') {
      append('model', assistantParts(message, idToName));
    } else if (role === 'tool' || role === 'function') {
      const id = str(message.tool_call_id);
      const name = (id === undefined ? undefined : idToName.get(id)) ?? str(message.name) ?? '';
      append('user', [{ functionResponse: { name, response: toolResponse(message.content) } }]);
    } else {
      append('user', contentToGeminiParts(message.content));
    }
  }
  const out: JsonMap = { contents };
  if (system.length > 0) out.systemInstruction = { parts: system };
  const tools = toolsToGemini(body.tools);
  if (tools.length > 0) out.tools = tools;
  const toolConfig = toolConfigToGemini(body.tool_choice);
  if (toolConfig !== undefined) out.toolConfig = toolConfig;
  const config = generationConfig(body, opts);
  if (Object.keys(config).length > 0) out.generationConfig = config;
  if (opts.safetySettings !== undefined) {
    const safety = geminiSafetySettings(opts.safetySettings);
    if (safety.length > 0) out.safetySettings = safety;
  }
  return out;
}
