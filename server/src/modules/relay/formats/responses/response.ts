/**
 * Responses API response object ⇄ OpenAI chat.completion.
 */
import type { Json, JsonObject } from '../../types';
import { asObject, isObject, num, objects, str, type JsonMap } from '../json';
import { callName, namespaceMap, type NamespaceMap } from './namespace';
import { openAIUsageToResponses, responsesUsageToOpenAI } from './usage';

/** The part of an id after its first "-" or "_" prefix (chatcmpl-abc → abc, resp_abc → abc). */
export function idSuffix(id: string): string {
  const match = /^[a-z]+[-_](.+)$/.exec(id);
  return match ? match[1] : id;
}

/** Responses status and incomplete_details of a chat finish_reason. */
export function responseStatus(finishReason: string | undefined): {
  status: string;
  incomplete_details: Json;
} {
  if (finishReason === 'length') {
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  }
  if (finishReason === 'content_filter') {
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  }
  return { status: 'completed', incomplete_details: null };
}

/** The request's value of `key`, or `fallback` when it sent none. */
function echo(request: JsonObject | undefined, key: string, fallback: Json): Json {
  const value = request?.[key];
  return value === undefined || value === null ? fallback : value;
}

/**
 * A Response object with the fields clients (the openai SDK among them) read. Its configuration
 * (instructions, limits, sampling, tools, text format, reasoning, metadata) is the request's own, as
 * the Responses API states what each response answered.
 */
export function responseObject(fields: {
  id: string;
  createdAt: number;
  model: string;
  status: string;
  incompleteDetails?: Json;
  output: JsonMap[];
  usage?: JsonMap;
  request?: JsonObject;
}): JsonMap {
  const request = fields.request;
  const text = asObject(request?.text);
  const reasoning = asObject(request?.reasoning);
  return {
    id: fields.id,
    object: 'response',
    created_at: fields.createdAt,
    status: fields.status,
    error: null,
    incomplete_details: fields.incompleteDetails ?? null,
    instructions: echo(request, 'instructions', null),
    max_output_tokens: echo(request, 'max_output_tokens', null),
    model: fields.model,
    output: fields.output,
    parallel_tool_calls: echo(request, 'parallel_tool_calls', true),
    previous_response_id: null,
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    temperature: echo(request, 'temperature', null),
    text: { ...text, format: isObject(text.format) ? text.format : { type: 'text' } },
    tool_choice: echo(request, 'tool_choice', 'auto'),
    tools: echo(request, 'tools', []),
    top_p: echo(request, 'top_p', null),
    truncation: echo(request, 'truncation', 'disabled'),
    usage: fields.usage ?? null,
    metadata: echo(request, 'metadata', {}),
  };
}

export function reasoningItem(id: string, text: string, status = 'completed'): JsonMap {
  return { type: 'reasoning', id, status, summary: text === '' ? [] : [{ type: 'summary_text', text }] };
}

export function outputText(text: string): JsonMap {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

export function messageItem(id: string, content: JsonMap[], status = 'completed'): JsonMap {
  return { type: 'message', id, status, role: 'assistant', content };
}

/** A function_call item; a call of a namespaced function names its namespace (see namespace.ts). */
export function functionCallItem(
  id: string,
  callId: string,
  name: string,
  args: string,
  status = 'completed',
  namespaces: NamespaceMap = NO_NAMESPACES,
): JsonMap {
  const called = callName(namespaces, name);
  const item: JsonMap = { type: 'function_call', id, call_id: callId };
  if (called.namespace !== undefined) item.namespace = called.namespace;
  return { ...item, name: called.name, arguments: args, status };
}
const NO_NAMESPACES: NamespaceMap = new Map();

/**
 * chat.completion → Response object: reasoning_content becomes a reasoning item (one summary_text),
 * content a message item, tool_calls function_call items. Ids are `opts.id` (else resp_<chat id
 * suffix>) and, for items, rs_/msg_/fc_<suffix>_<output index>. finish_reason "length" gives status
 * incomplete with reason max_output_tokens.
 */
export function openAIToResponsesResponse(
  body: JsonObject,
  opts: { id?: string; createdAt?: number; request?: JsonObject } = {},
): JsonMap {
  const namespaces = namespaceMap(opts.request);
  const id = opts.id ?? `resp_${idSuffix(str(body.id) ?? 'chat')}`;
  const suffix = idSuffix(id);
  const choice = objects(body.choices)[0] ?? {};
  const message = asObject(choice.message);
  const output: JsonMap[] = [];
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning) ?? '';
  if (reasoning !== '') output.push(reasoningItem(`rs_${suffix}_${output.length}`, reasoning));
  const content: JsonMap[] = [];
  const text = typeof message.content === 'string' ? message.content : '';
  const refusal = str(message.refusal);
  if (text !== '' || refusal === undefined) content.push(outputText(text));
  if (refusal !== undefined) content.push({ type: 'refusal', refusal });
  const toolCalls = objects(message.tool_calls);
  const { status, incomplete_details } = responseStatus(str(choice.finish_reason));
  if (text !== '' || refusal !== undefined || toolCalls.length === 0) {
    // A message cut by the token limit or a filter is itself incomplete.
    output.push(messageItem(`msg_${suffix}_${output.length}`, content, status));
  }
  for (const call of toolCalls) {
    const fn = asObject(call.function);
    const callId = str(call.id) ?? `call_${output.length}`;
    output.push(
      functionCallItem(
        `fc_${suffix}_${output.length}`,
        callId,
        str(fn.name) ?? '',
        str(fn.arguments) ?? '',
        'completed',
        namespaces,
      ),
    );
  }
  return responseObject({
    id,
    createdAt: opts.createdAt ?? num(body.created) ?? 0,
    model: str(body.model) ?? '',
    status,
    incompleteDetails: incomplete_details,
    output,
    usage: openAIUsageToResponses(body.usage),
    request: opts.request,
  });
}

/** Reasoning text of a reasoning item: its summaries and reasoning_text content, blank-line separated. */
export function reasoningText(item: JsonMap): string {
  const texts = [...objects(item.summary), ...objects(item.content)]
    .map((p) => str(p.text) ?? '')
    .filter((t) => t !== '');
  return texts.join('\n\n');
}

/** Chat finish_reason of a Response (status, incomplete_details, whether it called functions). */
export function chatFinishReason(response: JsonObject, hasToolCalls: boolean): string {
  const reason = str(asObject(response.incomplete_details).reason);
  if (reason === 'max_output_tokens') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** Response object → chat.completion (for a channel that only speaks Responses). */
export function responsesToOpenAIResponse(body: JsonObject): JsonMap {
  let text = '';
  let refusal = '';
  const reasoning: string[] = [];
  const toolCalls: JsonMap[] = [];
  for (const item of objects(body.output)) {
    if (item.type === 'message') {
      for (const part of objects(item.content)) {
        if (part.type === 'output_text') text += str(part.text) ?? '';
        else if (part.type === 'refusal') refusal += str(part.refusal) ?? '';
      }
    } else if (item.type === 'reasoning') {
      const r = reasoningText(item);
      if (r !== '') reasoning.push(r);
    } else if (item.type === 'function_call') {
      toolCalls.push({
        id: str(item.call_id) ?? str(item.id) ?? '',
        type: 'function',
        function: { name: str(item.name) ?? '', arguments: str(item.arguments) ?? '' },
      });
    }
  }
  const message: JsonMap = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (reasoning.length > 0) message.reasoning_content = reasoning.join('\n\n');
  if (refusal !== '') message.refusal = refusal;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const out: JsonMap = {
    id: `chatcmpl-${idSuffix(str(body.id) ?? 'response')}`,
    object: 'chat.completion',
    created: num(body.created_at) ?? 0,
    model: str(body.model) ?? '',
    choices: [{ index: 0, message, finish_reason: chatFinishReason(body, toolCalls.length > 0) }],
  };
  const usage = responsesUsageToOpenAI(body.usage);
  if (usage !== undefined) out.usage = usage;
  return out;
}
