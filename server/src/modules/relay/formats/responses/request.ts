/**
 * OpenAI Responses API request ⇄ OpenAI chat completions request.
 *
 * Only function tools have a chat equivalent: built-in tools (web_search, file_search, computer use,
 * MCP...) and server-side state (previous_response_id, conversation, store) are dropped on the way to
 * chat. Reasoning items in the input are dropped (chat has no way to replay them).
 */
import type { Json, JsonObject } from '../../types';
import { asObject, contentText, isArray, num, objects, str, type JsonMap } from '../json';
import { flattenTools, qualifiedName } from './namespace';

/** Fields with the same name and meaning in both formats. */
const SHARED_FIELDS = [
  'model',
  'temperature',
  'top_p',
  'parallel_tool_calls',
  'user',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
  'top_logprobs',
];

function copyShared(from: JsonObject, to: JsonMap): void {
  for (const key of SHARED_FIELDS) {
    const value = from[key];
    if (value !== undefined && value !== null) to[key] = value;
  }
}

// ---------------------------------------------------------------------------------------------
// Responses → chat
// ---------------------------------------------------------------------------------------------

/** One Responses input content part as a chat content part (undefined when it has none). */
function inputPartToChat(part: JsonMap): JsonMap | undefined {
  const type = str(part.type);
  if (type === 'input_text' || type === 'output_text' || type === 'text') {
    return { type: 'text', text: str(part.text) ?? '' };
  }
  if (type === 'input_image') {
    const url = str(part.image_url);
    if (url === undefined) return undefined;
    const image: JsonMap = { url };
    const detail = str(part.detail);
    if (detail !== undefined) image.detail = detail;
    return { type: 'image_url', image_url: image };
  }
  if (type === 'input_file') {
    const file: JsonMap = {};
    for (const key of ['file_data', 'file_id', 'filename']) {
      const value = str(part[key]);
      if (value !== undefined) file[key] = value;
    }
    return Object.keys(file).length > 0 ? { type: 'file', file } : undefined;
  }
  if (type === 'input_audio') {
    const audio = asObject(part.input_audio);
    return {
      type: 'input_audio',
      input_audio: { data: str(audio.data) ?? '', format: str(audio.format) ?? 'wav' },
    };
  }
  return undefined;
}

function userContent(content: Json | undefined): Json {
  if (typeof content === 'string') return content;
  const parts = objects(content)
    .map(inputPartToChat)
    .filter((p): p is JsonMap => p !== undefined);
  if (parts.length === 1 && parts[0].type === 'text') return parts[0].text;
  return parts;
}

/** Text of an assistant message item (output_text parts; refusals included). */
function assistantText(content: Json | undefined): string {
  if (typeof content === 'string') return content;
  return objects(content)
    .map((p) => str(p.text) ?? str(p.refusal) ?? '')
    .join('');
}

function toolChoiceToChat(choice: Json | undefined): Json | undefined {
  if (typeof choice === 'string') return choice;
  const c = asObject(choice);
  const name = str(c.name);
  if (c.type === 'function' && name !== undefined) return { type: 'function', function: { name } };
  return undefined;
}

function formatToChat(format: JsonMap): JsonMap | undefined {
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type !== 'json_schema') return undefined;
  const schema: JsonMap = { name: str(format.name) ?? 'response' };
  for (const key of ['schema', 'strict', 'description']) {
    const value = format[key];
    if (value !== undefined) schema[key] = value;
  }
  return { type: 'json_schema', json_schema: schema };
}

/**
 * Responses request → chat request: instructions become a system message, input items messages
 * (developer → system; function_call items join the assistant message before them,
 * function_call_output items become tool messages), max_output_tokens max_tokens, reasoning.effort reasoning_effort, text.format
 * response_format.
 */
export function responsesToOpenAIRequest(body: JsonObject): JsonMap {
  const messages: JsonMap[] = [];
  const instructions = str(body.instructions);
  if (instructions) messages.push({ role: 'system', content: instructions });
  const input = body.input;
  if (typeof input === 'string') messages.push({ role: 'user', content: input });
  for (const item of objects(input)) {
    const type = str(item.type) ?? (item.role !== undefined ? 'message' : undefined);
    if (type === 'message') {
      const role = str(item.role) ?? 'user';
      if (role === 'assistant') messages.push({ role, content: assistantText(item.content) });
      else if (role === 'system' || role === 'developer') {
        messages.push({ role: 'system', content: contentText(item.content) });
      } else messages.push({ role, content: userContent(item.content) });
    } else if (type === 'function_call') {
      // A call of a namespaced function goes back under the qualified name its tool was declared by.
      const namespace = str(item.namespace);
      const name = str(item.name) ?? '';
      const call: JsonMap = {
        id: str(item.call_id) ?? str(item.id) ?? '',
        type: 'function',
        function: {
          name: namespace ? qualifiedName(namespace, name) : name,
          arguments: str(item.arguments) ?? '',
        },
      };
      const last = messages[messages.length - 1];
      if (last !== undefined && last.role === 'assistant') {
        if (isArray(last.tool_calls)) last.tool_calls.push(call);
        else last.tool_calls = [call];
        if (last.content === '') last.content = null;
      } else {
        messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      }
    } else if (type === 'function_call_output') {
      const output = item.output;
      messages.push({
        role: 'tool',
        tool_call_id: str(item.call_id) ?? '',
        content: typeof output === 'string' ? output : contentText(output),
      });
    }
  }

  const out: JsonMap = { messages };
  copyShared(body, out);
  const stream = body.stream === true;
  out.stream = stream;
  if (stream) out.stream_options = { include_usage: true };
  const maxTokens = num(body.max_output_tokens);
  if (maxTokens !== undefined) out.max_tokens = maxTokens;
  if (out.top_logprobs !== undefined) out.logprobs = true;
  const tools = flattenTools(body.tools)
    .filter((t) => t.type === 'function')
    .map((t) => {
      const fn: JsonMap = { name: str(t.name) ?? '' };
      for (const key of ['description', 'parameters', 'strict']) {
        const value = t[key];
        if (value !== undefined && value !== null) fn[key] = value;
      }
      return { type: 'function', function: fn };
    });
  if (tools.length > 0) out.tools = tools;
  const toolChoice = toolChoiceToChat(body.tool_choice);
  // Chat rejects a tool_choice without tools (the request may have had only built-in tools).
  if (toolChoice !== undefined && tools.length > 0) out.tool_choice = toolChoice;
  const effort = str(asObject(body.reasoning).effort);
  if (effort !== undefined) out.reasoning_effort = effort;
  const text = asObject(body.text);
  const format = formatToChat(asObject(text.format));
  if (format !== undefined) out.response_format = format;
  const verbosity = str(text.verbosity);
  if (verbosity !== undefined) out.verbosity = verbosity;
  return out;
}

// ---------------------------------------------------------------------------------------------
// chat → Responses
// ---------------------------------------------------------------------------------------------

function chatPartToInput(part: JsonMap): JsonMap | undefined {
  const type = str(part.type);
  if (type === 'text') return { type: 'input_text', text: str(part.text) ?? '' };
  if (type === 'image_url') {
    const image = part.image_url;
    const url = typeof image === 'string' ? image : str(asObject(image).url);
    if (url === undefined) return undefined;
    return { type: 'input_image', image_url: url, detail: str(asObject(image).detail) ?? 'auto' };
  }
  if (type === 'file') {
    const file = asObject(part.file);
    const out: JsonMap = { type: 'input_file' };
    for (const key of ['file_data', 'file_id', 'filename']) {
      const value = str(file[key]);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (type === 'input_audio') return { type: 'input_audio', input_audio: asObject(part.input_audio) };
  return undefined;
}

function inputContent(content: Json | undefined): Json {
  if (typeof content === 'string') return content;
  return objects(content)
    .map(chatPartToInput)
    .filter((p): p is JsonMap => p !== undefined);
}

function toolChoiceToResponses(choice: Json | undefined): Json | undefined {
  if (typeof choice === 'string') return choice;
  const name = str(asObject(asObject(choice).function).name);
  return name === undefined ? undefined : { type: 'function', name };
}

function formatToResponses(format: JsonMap): JsonMap | undefined {
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'text') return { type: 'text' };
  if (format.type !== 'json_schema') return undefined;
  const schema = asObject(format.json_schema);
  const out: JsonMap = { type: 'json_schema', name: str(schema.name) ?? 'response' };
  for (const key of ['schema', 'strict', 'description']) {
    const value = schema[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Chat request → Responses request (for a channel that only speaks Responses). Leading
 * system/developer messages become `instructions`; assistant tool calls function_call items, tool
 * messages function_call_output items. `store` is false unless the chat request asked for it, as
 * chat completions are not stored by default.
 */
export function openAIToResponsesRequest(body: JsonObject): JsonMap {
  const input: JsonMap[] = [];
  const instructions: string[] = [];
  for (const message of objects(body.messages)) {
    const role = str(message.role) ?? 'user';
    if (role === 'system' || role === 'developer') {
      const text = contentText(message.content);
      if (input.length === 0) instructions.push(text);
      else input.push({ type: 'message', role, content: text });
    } else if (role === 'assistant') {
      const text = contentText(message.content);
      if (text !== '') input.push({ type: 'message', role: 'assistant', content: text });
      for (const call of objects(message.tool_calls)) {
        const fn = asObject(call.function);
        input.push({
          type: 'function_call',
          call_id: str(call.id) ?? '',
          name: str(fn.name) ?? '',
          arguments: str(fn.arguments) ?? '',
        });
      }
    } else if (role === 'tool') {
      input.push({
        type: 'function_call_output',
        call_id: str(message.tool_call_id) ?? '',
        output: contentText(message.content),
      });
    } else {
      input.push({ type: 'message', role, content: inputContent(message.content) });
    }
  }

  const out: JsonMap = { input };
  copyShared(body, out);
  if (instructions.length > 0) out.instructions = instructions.join('\n\n');
  out.stream = body.stream === true;
  out.store = body.store === true;
  const maxTokens = num(body.max_completion_tokens) ?? num(body.max_tokens);
  if (maxTokens !== undefined) out.max_output_tokens = maxTokens;
  if (body.logprobs !== true) delete out.top_logprobs;
  const tools = objects(body.tools)
    .filter((t) => t.type === 'function')
    .map((t) => {
      const fn = asObject(t.function);
      const tool: JsonMap = { type: 'function', name: str(fn.name) ?? '' };
      for (const key of ['description', 'parameters', 'strict']) {
        const value = fn[key];
        if (value !== undefined) tool[key] = value;
      }
      return tool;
    });
  if (tools.length > 0) out.tools = tools;
  const toolChoice = toolChoiceToResponses(body.tool_choice);
  if (toolChoice !== undefined) out.tool_choice = toolChoice;
  const effort = str(body.reasoning_effort);
  if (effort !== undefined) out.reasoning = { effort };
  const text: JsonMap = {};
  const format = formatToResponses(asObject(body.response_format));
  if (format !== undefined) text.format = format;
  const verbosity = str(body.verbosity);
  if (verbosity !== undefined) text.verbosity = verbosity;
  if (Object.keys(text).length > 0) out.text = text;
  return out;
}
