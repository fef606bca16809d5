/**
 * Hub (OpenAI) request bodies → Cohere v2 bodies: chat (`/v2/chat`), rerank (`/v2/rerank`) and embed
 * (`/v2/embed`). Cohere v2 chat messages are close to OpenAI's; the sampling parameters are renamed
 * (top_p → p, top_k → k, stop → stop_sequences) and parameters Cohere does not know are left out.
 */
import type { Json, JsonObject } from '../../types';
import { arr, asObj, compact, isObj, type JsonRecord, num, type Obj, stopList, str, textOf } from '../util';

function userContent(content: unknown): Json {
  if (!Array.isArray(content)) return textOf(content);
  return arr(content).flatMap((part): JsonRecord[] => {
    if (!isObj(part)) return [];
    if (part.type === 'text') return [{ type: 'text', text: str(part.text) ?? '' }];
    if (part.type === 'image_url') {
      const image = isObj(part.image_url) ? part.image_url : { url: part.image_url };
      return [{ type: 'image_url', image_url: compact({ url: str(image.url), detail: str(image.detail) }) }];
    }
    return [];
  });
}

function toolCalls(calls: unknown): JsonRecord[] {
  return arr(calls).flatMap((call): JsonRecord[] => {
    if (!isObj(call)) return [];
    const fn = asObj(call.function);
    return [
      {
        id: str(call.id) ?? '',
        type: 'function',
        function: { name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '{}' },
      },
    ];
  });
}

function cohereMessage(message: Obj): JsonObject | null {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOf(message.content) };
    case 'user':
      return { role: 'user', content: userContent(message.content) };
    case 'assistant': {
      const text = textOf(message.content);
      const calls = toolCalls(message.tool_calls);
      return compact({
        role: 'assistant',
        content: text !== '' || calls.length === 0 ? text : undefined,
        tool_calls: calls.length > 0 ? calls : undefined,
      });
    }
    case 'tool':
      return {
        role: 'tool',
        tool_call_id: str(message.tool_call_id) ?? '',
        content: textOf(message.content),
      };
    default:
      return null;
  }
}

function toolChoice(choice: unknown): string | undefined {
  if (choice === 'required' || isObj(choice)) return 'REQUIRED';
  if (choice === 'none') return 'NONE';
  return undefined;
}

function responseFormat(format: unknown): JsonRecord | undefined {
  if (!isObj(format)) return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema') {
    return compact({ type: 'json_object', json_schema: asObj(format.json_schema).schema });
  }
  return undefined;
}

export function cohereChatBody(body: JsonObject, model: string, stream: boolean): JsonObject {
  const messages = arr(body.messages).flatMap((m) => {
    const converted = isObj(m) ? cohereMessage(m) : null;
    return converted ? [converted] : [];
  });
  const tools = arr(body.tools).filter((tool) => isObj(tool) && tool.type === 'function');
  return compact({
    model,
    messages,
    stream: stream || undefined,
    max_tokens: num(body.max_tokens) ?? num(body.max_completion_tokens),
    temperature: num(body.temperature),
    p: num(body.top_p),
    k: num(body.top_k),
    seed: num(body.seed),
    frequency_penalty: num(body.frequency_penalty),
    presence_penalty: num(body.presence_penalty),
    stop_sequences: stopList(body.stop),
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: toolChoice(body.tool_choice),
    response_format: responseFormat(body.response_format),
  });
}

/** The text of one rerank document: a string, or the `text` of a {text} object, else its JSON. */
export function documentText(document: unknown): string {
  if (typeof document === 'string') return document;
  return (isObj(document) ? str(document.text) : undefined) ?? JSON.stringify(document);
}

export function cohereRerankBody(body: JsonObject, model: string): JsonObject {
  return compact({
    model,
    query: str(body.query) ?? '',
    documents: arr(body.documents).map(documentText),
    top_n: num(body.top_n),
    max_tokens_per_doc: num(body.max_tokens_per_doc),
  });
}

export function cohereEmbedBody(body: JsonObject, model: string): JsonObject {
  const input = typeof body.input === 'string' ? [body.input] : arr(body.input);
  return compact({
    model,
    texts: input.filter((text): text is string => typeof text === 'string'),
    input_type: str(body.input_type) ?? 'search_document',
    embedding_types: ['float'],
    output_dimension: num(body.dimensions),
    truncate: str(body.truncate),
  });
}
