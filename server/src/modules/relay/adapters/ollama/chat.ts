/**
 * Hub chat requests → Ollama `/api/chat` bodies, and Ollama chat answers → chat.completion.
 * Images travel as base64 strings taken from `data:` URLs (remote image URLs cannot be fetched by a
 * pure adapter and are left out); sampling parameters move into `options` (max_tokens → num_predict);
 * response_format becomes `format` ("json" or the JSON schema). Tool call arguments are objects on
 * Ollama's side and JSON strings on OpenAI's.
 */
import type { Json, JsonObject } from '../../types';
import {
  arr,
  asObj,
  chatCompletion,
  compact,
  isObj,
  json,
  num,
  type Obj,
  parseDataUrl,
  parseJson,
  stopList,
  str,
  textOf,
} from '../util';

function images(content: unknown): string[] {
  return arr(content).flatMap((part) => {
    if (!isObj(part) || part.type !== 'image_url') return [];
    const url = isObj(part.image_url) ? str(part.image_url.url) : str(part.image_url);
    const image = url ? parseDataUrl(url) : null;
    return image ? [image.data] : [];
  });
}

function requestToolCalls(calls: unknown): JsonObject[] {
  return arr(calls).flatMap((call): JsonObject[] => {
    if (!isObj(call)) return [];
    const fn = asObj(call.function);
    const args = typeof fn.arguments === 'string' ? parseJson(fn.arguments) : fn.arguments;
    return [{ function: { name: str(fn.name) ?? '', arguments: json(isObj(args) ? args : {}) ?? {} } }];
  });
}

function ollamaMessage(message: Obj): JsonObject {
  const pictures = images(message.content);
  const calls = requestToolCalls(message.tool_calls);
  return compact({
    role: message.role === 'developer' ? 'system' : message.role,
    content: textOf(message.content),
    images: pictures.length > 0 ? pictures : undefined,
    tool_calls: calls.length > 0 ? calls : undefined,
    tool_name: message.role === 'tool' ? str(message.name) : undefined,
  });
}

function format(responseFormat: unknown): Json | undefined {
  if (!isObj(responseFormat)) return undefined;
  if (responseFormat.type === 'json_object') return 'json';
  if (responseFormat.type === 'json_schema') return json(asObj(responseFormat.json_schema).schema);
  return undefined;
}

export function ollamaChatBody(body: JsonObject, model: string, stream: boolean): JsonObject {
  const options = compact({
    temperature: num(body.temperature),
    top_p: num(body.top_p),
    top_k: num(body.top_k),
    num_predict: num(body.max_tokens) ?? num(body.max_completion_tokens),
    stop: stopList(body.stop),
    seed: num(body.seed),
    frequency_penalty: num(body.frequency_penalty),
    presence_penalty: num(body.presence_penalty),
  });
  const tools = arr(body.tools);
  return compact({
    model,
    messages: arr(body.messages).filter(isObj).map(ollamaMessage),
    stream,
    options: Object.keys(options).length > 0 ? options : undefined,
    format: format(body.response_format),
    tools: tools.length > 0 ? tools : undefined,
    think: typeof body.think === 'boolean' || typeof body.think === 'string' ? body.think : undefined,
    keep_alive: body.keep_alive,
  });
}

/** OpenAI tool calls of an Ollama message, numbered from `first`. */
export function openAiToolCalls(calls: unknown, first: number): JsonObject[] {
  return arr(calls)
    .filter(isObj)
    .map((call, i) => {
      const fn = asObj(call.function);
      const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
      return {
        id: `call_${first + i}`,
        type: 'function',
        function: { name: str(fn.name) ?? '', arguments: args },
      };
    });
}

/** Unix seconds of Ollama's `created_at` (0 when absent or unreadable). */
export function createdSeconds(createdAt: unknown): number {
  const ms = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

export function finishReason(doneReason: unknown, sawToolCalls: boolean): string {
  if (sawToolCalls) return 'tool_calls';
  return doneReason === 'length' ? 'length' : 'stop';
}

export function ollamaChatToOpenAi(body: unknown, model: string): JsonObject {
  const answer = asObj(body);
  const message = asObj(answer.message);
  const toolCalls = openAiToolCalls(message.tool_calls, 0);
  const reply = compact({
    role: 'assistant',
    content: str(message.content) ?? '',
    reasoning_content: str(message.thinking) || undefined,
    tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
  });
  const meta = { id: 'chatcmpl-ollama', created: createdSeconds(answer.created_at), model };
  const finish = finishReason(answer.done_reason, toolCalls.length > 0);
  return chatCompletion(meta, reply, finish, num(answer.prompt_eval_count) ?? 0, num(answer.eval_count) ?? 0);
}
