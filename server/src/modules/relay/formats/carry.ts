/**
 * What becomes of each request field when a call is converted to a channel of another wire format.
 *
 * One table per inbound format lists every request field of that format (the official SDKs' request
 * types are the list of facts, see carry.spec.ts) with its fate on a channel of each other format:
 *
 * - `carried`: sent under the same name and meaning;
 * - `mapped`: sent as the target's counterpart (the note says how);
 * - `ignored`: left out because it cannot change the answer (the note says why);
 * - `dropped`: a sampling hint the target has no knob for (top_k on OpenAI, a penalty on
 *   Anthropic…): left out, and named in the answer's `x-gatehouse-dropped-params` header and in the
 *   log's `other.dropped_params`, since it shapes how the answer is sampled but not what it means;
 * - `refused`: the call is refused with a 400 naming the field and the channel's format, before any
 *   upstream call, rather than sent without it: the fields whose loss changes the answer (tools,
 *   output schemas, content the target cannot see, answers it cannot give). A `matters` test narrows
 *   the refusal (or the naming of a dropped field) to the values that ask for something (n above 1,
 *   a penalty other than 0…); other values are harmless and left out silently. A mapped field's
 *   `partly` test names the values or parts the target cannot take (a custom tool, a bare JSON mode
 *   on Anthropic…), which are refused alike.
 *
 * A field that is not part of the inbound format at all is left out of a converted call, as the
 * official SDKs and the providers' own compatibility layers do. Same-format calls never come here.
 * docs/agents.md holds the tables rendered by carryTables().
 */
import type { Json, JsonObject, WireFormat } from '../types';
import { guessMimeType } from './gemini/request';
import { asObject, isArray, isObject, objects, str } from './json';

export type Fate = 'carried' | 'mapped' | 'ignored' | 'dropped' | 'refused';

/** The channel formats a call of each inbound format may be converted to. */
export const CONVERSIONS: Readonly<Record<WireFormat, readonly WireFormat[]>> = {
  openai: ['anthropic', 'gemini'],
  responses: ['openai', 'anthropic', 'gemini'],
  anthropic: ['openai', 'gemini'],
  gemini: ['openai', 'anthropic'],
};

export const FORMAT_NAMES: Readonly<Record<WireFormat, string>> = {
  openai: 'OpenAI',
  responses: 'OpenAI Responses',
  anthropic: 'Anthropic',
  gemini: 'Gemini',
};

export interface FieldRule {
  /** The field as the caller names it: a top-level name or a dotted path. */
  field: string;
  /** Its fate on a channel of each format this inbound format converts to. */
  to: Partial<Record<WireFormat, Fate>>;
  /** How it is mapped, why it may be ignored, or which values are refused. */
  note: string;
  /**
   * For a refused or dropped field: whether this value is refused (named as dropped). Without it any
   * value but null is; the others (0 for a penalty, false…) ask for nothing the target lacks.
   */
  matters?: (value: Json) => boolean;
  /** How the refusal names the field, when not by its name alone. */
  label?: string;
  /**
   * For a mapped field: the values or parts a channel of format `to` cannot take, as the label the
   * refusal names (false: none).
   */
  partly?: (value: Json, body: JsonObject, to: WireFormat) => false | string;
}

// ---------------------------------------------------------------------------------------------
// Value tests
// ---------------------------------------------------------------------------------------------

const nonZero = (v: Json): boolean => typeof v === 'number' && v !== 0;
const isTrue = (v: Json): boolean => v === true;
const aboveOne = (v: Json): boolean => typeof v === 'number' && v > 1;
const nonEmpty = (v: Json): boolean =>
  isArray(v) ? v.length > 0 : isObject(v) ? Object.keys(v).length > 0 : v !== '';
const notMedium = (v: Json): boolean => typeof v === 'string' && v !== 'medium';
const notText = (v: Json): boolean =>
  isArray(v) && v.some((m) => typeof m !== 'string' || m.toLowerCase() !== 'text');

/** The first tool whose type is not one of `kinds` (absent type counts as `absent`), as a label. */
function toolType(field: string, kinds: readonly string[], absent: string) {
  return (v: Json): false | string => {
    for (const tool of objects(v)) {
      const type = str(tool.type) ?? absent;
      if (!kinds.includes(type)) return `${field} (type "${type}")`;
    }
    return false;
  };
}

/** Responses tools other than function tools and namespaces of function tools, as a label. */
function responsesTools(v: Json): false | string {
  for (const tool of objects(v)) {
    const type = str(tool.type) ?? '';
    if (type === 'namespace') {
      const inner = toolType('tools', ['function'], '')(tool.tools ?? []);
      if (inner) return inner.replace('tools (', 'tools (namespace member of ');
      continue;
    }
    if (type !== 'function') return `tools (type "${type}")`;
  }
  return false;
}

/** An OpenAI tool_choice object other than a named function. */
function toolChoiceObject(field: string) {
  return (v: Json): false | string => {
    if (!isObject(v)) return false;
    const type = str(v.type) ?? '';
    return type === 'function' ? false : `${field} (type "${type}")`;
  };
}

/** A base64 data URL, which every target takes as inline data. */
const BASE64_DATA_URL = /^data:[^;,]+(?:;[^;,]*)*;base64,/i;
const WEB_URL = /^https?:\/\//i;

/**
 * An image URL a channel of format `to` can read: an http(s) or base64 data URL, and on Gemini a
 * Cloud Storage URI too (fileData). Anything else (an OpenAI file id, ftp://…) has no counterpart.
 */
function readableImageUrl(url: string | undefined, to: WireFormat): boolean {
  if (url === undefined) return false;
  return BASE64_DATA_URL.test(url) || WEB_URL.test(url) || (to === 'gemini' && url.startsWith('gs://'));
}
const UNREADABLE_IMAGE_URL = 'not an http(s) or base64 data URL';

/** The chat content part types; any other part has nowhere to go. */
const CHAT_PARTS = ['text', 'refusal', 'image_url', 'input_audio', 'file'];

/** Chat message content parts a channel of the target format has no place for. */
function chatParts(v: Json, _body: JsonObject, to: WireFormat): false | string {
  for (const message of objects(v)) {
    for (const part of objects(message.content)) {
      const type = str(part.type) ?? '';
      if (!CHAT_PARTS.includes(type)) return `messages (content part "${type}")`;
      if (type === 'input_audio' && to === 'anthropic') return 'messages (input_audio content)';
      if (type === 'image_url') {
        const url = str(part.image_url) ?? str(asObject(part.image_url).url);
        if (!readableImageUrl(url, to)) return `messages (image_url ${UNREADABLE_IMAGE_URL})`;
      }
      if (type === 'file') {
        const data = str(asObject(part.file).file_data);
        if (!data) return 'messages (file by file_id)';
        if (!BASE64_DATA_URL.test(data)) return 'messages (file_data not a base64 data URL)';
      }
    }
  }
  return false;
}

const ANTHROPIC_BLOCKS = [
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
];

/** An Anthropic image or document source with no counterpart, as a label (false: it has one). */
function anthropicSource(block: JsonObject, where: string): false | string {
  const source = asObject(block.source);
  const type = str(source.type);
  if (block.type === 'image') {
    if (type === 'url' && !WEB_URL.test(str(source.url) ?? ''))
      return `messages (${where}image url not http(s))`;
    if (type !== 'base64' && type !== 'url') return `messages (${where}image source "${type}")`;
  }
  if (block.type === 'document' && type !== 'base64' && type !== 'text')
    return `messages (${where}document source "${type}")`;
  return false;
}

/** The blocks a tool_result may hold that travel with it (text as its content, the rest beside it). */
const TOOL_RESULT_BLOCKS = ['text', 'image', 'document'];

/** Anthropic content blocks with no counterpart (server tool results, Files API sources…). */
function anthropicBlocks(v: Json): false | string {
  for (const message of objects(v)) {
    for (const block of objects(message.content)) {
      const type = str(block.type) ?? '';
      if (!ANTHROPIC_BLOCKS.includes(type)) return `messages (content block "${type}")`;
      const source = anthropicSource(block, '');
      if (source) return source;
      if (type !== 'tool_result') continue;
      for (const inner of objects(block.content)) {
        const innerType = str(inner.type) ?? '';
        if (!TOOL_RESULT_BLOCKS.includes(innerType)) return `messages (tool_result block "${innerType}")`;
        const innerSource = anthropicSource(inner, 'tool_result ');
        if (innerSource) return innerSource;
      }
    }
  }
  return false;
}

/** A Gemini Files API URI: readable with the Gemini key only. */
const GEMINI_FILES_URI = /^https:\/\/generativelanguage\.googleapis\.com\/[^?#]*\/files\//i;

/**
 * A Gemini fileData part a channel of format `to` cannot read, as a label: a URI that is not http(s)
 * or is Gemini's own Files API, or a type other than an image (a PDF on Anthropic: a document URL).
 */
function geminiFileData(fileData: JsonObject, to: WireFormat): false | string {
  const uri = str(fileData.fileUri ?? fileData.file_uri) ?? '';
  if (!WEB_URL.test(uri)) return 'contents (fileData not http(s))';
  if (GEMINI_FILES_URI.test(uri)) return 'contents (fileData from the Gemini Files API)';
  const mime = str(fileData.mimeType ?? fileData.mime_type) ?? guessMimeType(uri);
  if (mime.startsWith('image/') || (to === 'anthropic' && mime === 'application/pdf')) return false;
  return `contents (fileData ${JSON.stringify(mime)})`;
}

/** Gemini parts with no counterpart; inline audio too when the target takes none. */
function geminiParts(v: Json, _body: JsonObject, to: WireFormat): false | string {
  for (const content of objects(v)) {
    const model = content.role === 'model';
    for (const part of objects(content.parts)) {
      for (const kind of [
        'executableCode',
        'codeExecutionResult',
        'executable_code',
        'code_execution_result',
      ])
        if (part[kind] !== undefined) return `contents (${kind} part)`;
      const inline = part.inlineData ?? part.inline_data;
      const fileData = part.fileData ?? part.file_data;
      // A chat assistant message holds text and tool calls only.
      if (model && inline !== undefined) return 'contents (inlineData in a model turn)';
      if (model && fileData !== undefined) return 'contents (fileData in a model turn)';
      const mime = str(asObject(inline).mimeType ?? asObject(inline).mime_type) ?? '';
      if (to === 'anthropic' && mime.startsWith('audio/')) return 'contents (inline audio)';
      const file = fileData === undefined ? false : geminiFileData(asObject(fileData), to);
      if (file) return file;
      const response = asObject(part.functionResponse ?? part.function_response);
      if (isArray(response.parts) && response.parts.length > 0) return 'contents (functionResponse parts)';
    }
  }
  return false;
}

/** A systemInstruction part other than text (a system message holds text only). */
function geminiSystemParts(v: Json): false | string {
  for (const part of objects(asObject(v).parts)) {
    if (part.text !== undefined) continue;
    const kind = Object.keys(part).find((k) => k !== 'thought' && k !== 'thoughtSignature');
    if (kind !== undefined) return `systemInstruction (${kind} part)`;
  }
  return false;
}

/** Gemini tools other than function declarations (Google Search, code execution, URL context…). */
function geminiTools(v: Json): false | string {
  for (const tool of objects(v)) {
    for (const key of Object.keys(tool)) {
      if (key !== 'functionDeclarations' && key !== 'function_declarations') return `tools (${key})`;
    }
  }
  return false;
}

/** Responses input items with no chat counterpart (item references, built-in tool calls…). */
const RESPONSES_ITEMS = ['message', 'function_call', 'function_call_output', 'reasoning'];
/** The content parts of a user message item; other roles hold text only. */
const RESPONSES_USER_PARTS = [
  'input_text',
  'output_text',
  'text',
  'input_image',
  'input_file',
  'input_audio',
];
const RESPONSES_TEXT_PARTS = ['input_text', 'output_text', 'text', 'refusal'];
function responsesItems(v: Json, _body: JsonObject, to: WireFormat): false | string {
  for (const item of objects(v)) {
    const type = str(item.type) ?? (item.role !== undefined ? 'message' : '');
    if (!RESPONSES_ITEMS.includes(type)) return `input (item type "${type}")`;
    if (type === 'function_call_output') {
      // A tool message holds text only.
      for (const part of objects(item.output))
        if (!RESPONSES_TEXT_PARTS.includes(str(part.type) ?? ''))
          return `input (function_call_output with ${str(part.type) ?? 'a part without type'})`;
    }
    if (type !== 'message') continue;
    const role = str(item.role) ?? 'user';
    for (const part of objects(item.content)) {
      const partType = str(part.type) ?? '';
      if (role !== 'user') {
        if (RESPONSES_TEXT_PARTS.includes(partType)) continue;
        return `input (${partType || 'a part without type'} in ${role === 'assistant' ? 'an' : 'a'} ${role} message)`;
      }
      if (!RESPONSES_USER_PARTS.includes(partType)) return `input (content part "${partType}")`;
      if (partType === 'input_image') {
        const url = str(part.image_url);
        if (!url) return 'input (input_image by file_id)';
        // A chat channel reads image URLs as Responses does; the others need one they can fetch.
        if (to !== 'openai' && !readableImageUrl(url, to))
          return `input (input_image ${UNREADABLE_IMAGE_URL})`;
      }
      if (partType === 'input_file') {
        const data = str(part.file_data);
        // A file travels as its data; a file id only means something to an OpenAI-format channel.
        if (!data && !(to === 'openai' && str(part.file_id))) return 'input (input_file without file_data)';
        if (data && to !== 'openai' && !BASE64_DATA_URL.test(data))
          return 'input (input_file data not a base64 data URL)';
      }
      if (partType === 'input_audio' && to === 'anthropic') return 'input (input_audio content)';
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// The tables
// ---------------------------------------------------------------------------------------------

const ALL = (fate: Fate, ...formats: WireFormat[]): Partial<Record<WireFormat, Fate>> =>
  Object.fromEntries(formats.map((f) => [f, fate]));

/** OpenAI chat completions → Anthropic, Gemini. */
const OPENAI: FieldRule[] = [
  { field: 'model', to: { anthropic: 'carried', gemini: 'mapped' }, note: 'Gemini: in the URL.' },
  {
    field: 'messages',
    to: { anthropic: 'mapped', gemini: 'mapped' },
    note: 'system/developer → system (systemInstruction); tool calls and results → tool_use/tool_result (functionCall/functionResponse); images by http(s) or base64 data URL (and gs:// on Gemini), files by base64 data URL and audio (Gemini) as blocks/parts. Refused: audio input to Anthropic, files by file_id, other image URLs (an OpenAI file id, ftp://…), other content part types.',
    partly: chatParts,
  },
  {
    field: 'audio',
    to: ALL('refused', 'anthropic', 'gemini'),
    note: 'Spoken answers: neither gives them on this API.',
  },
  {
    field: 'modalities',
    to: ALL('refused', 'anthropic', 'gemini'),
    note: 'Refused when it asks for anything but text.',
    matters: notText,
  },
  {
    field: 'frequency_penalty',
    to: { anthropic: 'dropped', gemini: 'mapped' },
    note: 'Gemini: frequencyPenalty. Anthropic has no such knob: dropped (and named) unless 0.',
    matters: nonZero,
  },
  {
    field: 'presence_penalty',
    to: { anthropic: 'dropped', gemini: 'mapped' },
    note: 'Gemini: presencePenalty. Anthropic has no such knob: dropped (and named) unless 0.',
    matters: nonZero,
  },
  {
    field: 'functions',
    to: ALL('refused', 'anthropic', 'gemini'),
    note: 'Legacy function calling: send `tools`.',
    matters: nonEmpty,
  },
  {
    field: 'function_call',
    to: ALL('refused', 'anthropic', 'gemini'),
    note: 'Legacy function calling: send `tool_choice`.',
  },
  {
    field: 'logit_bias',
    to: ALL('dropped', 'anthropic', 'gemini'),
    note: "Token ids of OpenAI's tokenizer: meaningless to another model. Dropped (and named) unless empty.",
    matters: nonEmpty,
  },
  {
    field: 'logprobs',
    to: { anthropic: 'refused', gemini: 'mapped' },
    note: 'Gemini: responseLogprobs. Anthropic gives none: `true` refused.',
    matters: isTrue,
  },
  {
    field: 'top_logprobs',
    to: { anthropic: 'refused', gemini: 'mapped' },
    note: 'Gemini: logprobs. Anthropic: refused above 0.',
    matters: nonZero,
  },
  {
    field: 'max_tokens',
    to: ALL('mapped', 'anthropic', 'gemini'),
    note: 'max_tokens (maxOutputTokens); Anthropic requires one: `claude.default_max_tokens` when absent.',
  },
  { field: 'max_completion_tokens', to: ALL('mapped', 'anthropic', 'gemini'), note: 'As max_tokens.' },
  {
    field: 'metadata',
    to: ALL('ignored', 'anthropic', 'gemini'),
    note: 'Tags of a completion stored at OpenAI; they do not reach the model.',
  },
  {
    field: 'n',
    to: { anthropic: 'refused', gemini: 'mapped' },
    note: 'Gemini: candidateCount. Anthropic answers once: above 1 refused.',
    matters: aboveOne,
    label: 'n (several choices)',
  },
  {
    field: 'parallel_tool_calls',
    to: { anthropic: 'mapped', gemini: 'ignored' },
    note: 'Anthropic: `false` → tool_choice.disable_parallel_tool_use. Gemini has no switch; its answer is a list of calls either way, which the caller handles.',
  },
  {
    field: 'prediction',
    to: ALL('ignored', 'anthropic', 'gemini'),
    note: 'Predicted output only speeds OpenAI up; the answer is the same.',
  },
  {
    field: 'prompt_cache_key',
    to: ALL('ignored', 'anthropic', 'gemini'),
    note: "A cache-routing hint: the gateway's channel affinity uses it; Anthropic (cache_control) and Gemini (implicit caching) cache on their own.",
  },
  {
    field: 'reasoning_effort',
    to: ALL('mapped', 'anthropic', 'gemini'),
    note: 'Anthropic: extended thinking with a budget per level; Gemini: thinkingConfig.thinkingBudget.',
  },
  {
    field: 'response_format',
    to: { anthropic: 'mapped', gemini: 'mapped' },
    note: 'json_schema → output_config.format (responseMimeType + responseJsonSchema). Anthropic has no bare JSON mode: json_object refused.',
    partly: (v, _body, to) =>
      to === 'anthropic' && asObject(v).type === 'json_object' ? 'response_format (json_object)' : false,
  },
  {
    field: 'safety_identifier',
    to: { anthropic: 'mapped', gemini: 'ignored' },
    note: 'Anthropic: metadata.user_id (when `user` is not set). Gemini has none; an abuse-monitoring id does not change the answer.',
  },
  {
    field: 'seed',
    to: { anthropic: 'dropped', gemini: 'mapped' },
    note: 'Gemini: seed. Anthropic has no seed (sampling is not repeatable there): dropped (and named).',
  },
  {
    field: 'service_tier',
    to: ALL('ignored', 'anthropic', 'gemini'),
    note: "OpenAI's processing tier (latency and price); the gateway bills by its own prices.",
  },
  { field: 'stop', to: ALL('mapped', 'anthropic', 'gemini'), note: 'stop_sequences (stopSequences).' },
  {
    field: 'store',
    to: ALL('refused', 'anthropic', 'gemini'),
    note: 'A stored completion lives at OpenAI: `true` refused.',
    matters: isTrue,
  },
  {
    field: 'stream',
    to: ALL('mapped', 'anthropic', 'gemini'),
    note: 'Anthropic: stream; Gemini: streamGenerateContent.',
  },
  {
    field: 'stream_options',
    to: ALL('ignored', 'anthropic', 'gemini'),
    note: 'The gateway asks every channel for usage itself and answers include_usage.',
  },
  {
    field: 'temperature',
    to: { anthropic: 'mapped', gemini: 'carried' },
    note: 'Anthropic: limited to its range 0–1.',
  },
  { field: 'top_p', to: { anthropic: 'carried', gemini: 'mapped' }, note: 'Gemini: topP.' },
  {
    field: 'tool_choice',
    to: ALL('mapped', 'anthropic', 'gemini'),
    note: 'auto, none, required (any / ANY), a named function (tool / allowedFunctionNames). allowed_tools and custom refused.',
    partly: toolChoiceObject('tool_choice'),
  },
  {
    field: 'tools',
    to: ALL('mapped', 'anthropic', 'gemini'),
    note: 'Function tools → input_schema tools (functionDeclarations); custom tools refused.',
    partly: toolType('tools', ['function'], 'function'),
  },
  {
    field: 'user',
    to: { anthropic: 'mapped', gemini: 'ignored' },
    note: 'Anthropic: metadata.user_id. Gemini has none; an end-user id does not change the answer.',
  },
  {
    field: 'verbosity',
    to: ALL('dropped', 'anthropic', 'gemini'),
    note: 'A length hint with no counterpart: anything but `medium` (the default) dropped (and named).',
    matters: notMedium,
  },
  {
    field: 'web_search_options',
    to: ALL('refused', 'anthropic', 'gemini'),
    note: "OpenAI's built-in web search.",
  },
];

/** Anthropic Messages → OpenAI, Gemini. */
const ANTHROPIC: FieldRule[] = [
  { field: 'model', to: { openai: 'carried', gemini: 'mapped' }, note: 'Gemini: in the URL.' },
  {
    field: 'messages',
    to: ALL('mapped', 'openai', 'gemini'),
    note: 'text, image, document, tool_use and tool_result blocks mapped (images and documents a tool returned ride along in the user message); thinking blocks left out (signed for Anthropic, the other model reasons afresh). Refused: server-tool blocks and other block types (in a tool_result too: search results…), Files API and document URL sources, image URLs other than http(s).',
    partly: anthropicBlocks,
  },
  { field: 'system', to: ALL('mapped', 'openai', 'gemini'), note: 'A system message (systemInstruction).' },
  { field: 'max_tokens', to: ALL('mapped', 'openai', 'gemini'), note: 'max_tokens (maxOutputTokens).' },
  {
    field: 'cache_control',
    to: ALL('ignored', 'openai', 'gemini'),
    note: 'A prompt-cache breakpoint (top level or on blocks); OpenAI and Gemini cache prefixes on their own.',
  },
  {
    field: 'container',
    to: ALL('refused', 'openai', 'gemini'),
    note: 'A code-execution container at Anthropic.',
  },
  {
    field: 'context_management',
    to: ALL('ignored', 'openai', 'gemini'),
    note: "Edits that clear old tool results or thinking at Anthropic as the context fills; a converted call leaves thinking out and sends the history as it is (an overflow is the channel's context error, never a silent change).",
  },
  {
    field: 'diagnostics',
    to: ALL('ignored', 'openai', 'gemini'),
    note: "Asks Anthropic to explain cache misses in the answer's metadata.",
  },
  {
    field: 'inference_geo',
    to: ALL('refused', 'openai', 'gemini'),
    note: 'Where Anthropic runs the call: another provider cannot honour it.',
  },
  {
    field: 'mcp_servers',
    to: ALL('refused', 'openai', 'gemini'),
    note: 'MCP servers Anthropic connects to (beta).',
    matters: nonEmpty,
  },
  {
    field: 'metadata',
    to: { openai: 'mapped', gemini: 'ignored' },
    note: 'metadata.user_id → user (and the session key of channel affinity). Gemini has none; an end-user id does not change the answer.',
  },
  {
    field: 'output_config',
    to: ALL('mapped', 'openai', 'gemini'),
    note: 'effort → reasoning_effort (thinking budget); format json_schema → response_format (responseJsonSchema).',
  },
  {
    field: 'output_format',
    to: ALL('mapped', 'openai', 'gemini'),
    note: 'The earlier beta of output_config.format, mapped alike.',
  },
  {
    field: 'service_tier',
    to: ALL('ignored', 'openai', 'gemini'),
    note: "Anthropic's capacity tier (priority or standard); the answer is the same.",
  },
  {
    field: 'speed',
    to: ALL('ignored', 'openai', 'gemini'),
    note: "Anthropic's fast output mode; the answer is the same.",
  },
  { field: 'stop_sequences', to: ALL('mapped', 'openai', 'gemini'), note: 'stop (stopSequences).' },
  {
    field: 'stream',
    to: ALL('mapped', 'openai', 'gemini'),
    note: 'stream with usage (streamGenerateContent).',
  },
  {
    field: 'temperature',
    to: { openai: 'carried', gemini: 'carried' },
    note: 'Same range on both (OpenAI takes up to 2).',
  },
  {
    field: 'thinking',
    to: ALL('mapped', 'openai', 'gemini'),
    note: 'The budget → reasoning_effort, kept for models that reason (`relay.reasoning_models`); Gemini: thinkingBudget.',
  },
  {
    field: 'tool_choice',
    to: ALL('mapped', 'openai', 'gemini'),
    note: 'auto, any (required / ANY), tool (a named function), none. disable_parallel_tool_use → parallel_tool_calls false on OpenAI; Gemini has no switch (a list of calls either way).',
  },
  {
    field: 'tools',
    to: ALL('mapped', 'openai', 'gemini'),
    note: 'Custom tools (input_schema) → function tools (functionDeclarations). Server tools (web search, bash, text editor, code execution…) refused.',
    partly: toolType('tools', ['custom'], 'custom'),
  },
  {
    field: 'top_k',
    to: { openai: 'dropped', gemini: 'mapped' },
    note: 'Gemini: topK. OpenAI has no such knob: dropped (and named).',
  },
  { field: 'top_p', to: { openai: 'carried', gemini: 'mapped' }, note: 'Gemini: topP.' },
  {
    field: 'billing_policy',
    to: ALL('ignored', 'openai', 'gemini'),
    note: 'Who Anthropic bills (beta); the gateway bills the caller by its own prices.',
  },
  {
    field: 'compaction',
    to: ALL('refused', 'openai', 'gemini'),
    note: "A compaction call summarised by Anthropic's server (beta).",
  },
  {
    field: 'fallback_credit_token',
    to: ALL('refused', 'openai', 'gemini'),
    note: 'Redeems an Anthropic server-side fallback (beta).',
  },
  {
    field: 'fallbacks',
    to: ALL('refused', 'openai', 'gemini'),
    note: "Anthropic's server-side model fallbacks (beta); the gateway's own fallback is the next channel.",
    matters: nonEmpty,
  },
  {
    field: 'thread',
    to: ALL('refused', 'openai', 'gemini'),
    note: 'Conversation state held by Anthropic (beta).',
  },
];

/** Gemini generateContent → OpenAI, Anthropic. */
const GEMINI: FieldRule[] = [
  {
    field: 'contents',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'Turns → messages; functionCall/functionResponse → tool calls and results; inline images, files, audio (OpenAI) as parts; fileData images by http(s) URL as image URLs, PDFs (Anthropic) as document URLs; thought parts left out. Refused: code-execution parts, audio to Anthropic, images or files in model turns, functionResponse parts, fileData of another type, by a non-http(s) URI or from the Gemini Files API.',
    partly: geminiParts,
  },
  {
    field: 'systemInstruction',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'Its text parts → a system message (system). Refused: any other part.',
    partly: geminiSystemParts,
  },
  {
    field: 'tools',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'functionDeclarations → function tools. Google Search, code execution, URL context and the other Google tools refused.',
    partly: geminiTools,
  },
  {
    field: 'toolConfig',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'functionCallingConfig mode AUTO/ANY/NONE (one allowed name: that function) → tool_choice; retrievalConfig only serves the refused Google tools.',
  },
  {
    field: 'safetySettings',
    to: ALL('ignored', 'openai', 'anthropic'),
    note: "Gemini's own content filter thresholds; another provider applies its own policy, which no request field controls.",
  },
  {
    field: 'cachedContent',
    to: ALL('refused', 'openai', 'anthropic'),
    note: 'A prompt cached at Google: the other provider would not see that part of the prompt.',
  },
  {
    field: 'modelArmorConfig',
    to: ALL('ignored', 'openai', 'anthropic'),
    note: "Vertex's Model Armor screening templates, like safetySettings: the other provider screens by its own policy.",
  },
  { field: 'labels', to: ALL('ignored', 'openai', 'anthropic'), note: 'Vertex billing labels.' },
  {
    field: 'generationConfig.temperature',
    to: ALL('carried', 'openai', 'anthropic'),
    note: 'Anthropic: limited to 0–1.',
  },
  { field: 'generationConfig.topP', to: ALL('mapped', 'openai', 'anthropic'), note: 'top_p.' },
  {
    field: 'generationConfig.topK',
    to: { openai: 'dropped', anthropic: 'mapped' },
    note: 'Anthropic: top_k. OpenAI has no such knob: dropped (and named); the Gemini CLI sends it on every call.',
  },
  {
    field: 'generationConfig.candidateCount',
    to: { openai: 'mapped', anthropic: 'refused' },
    note: 'OpenAI: n. Anthropic answers once: above 1 refused.',
    matters: aboveOne,
  },
  {
    field: 'generationConfig.maxOutputTokens',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'max_tokens.',
  },
  {
    field: 'generationConfig.stopSequences',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'stop (stop_sequences).',
  },
  {
    field: 'generationConfig.presencePenalty',
    to: { openai: 'mapped', anthropic: 'dropped' },
    note: 'OpenAI: presence_penalty. Anthropic has no such knob: dropped (and named) unless 0.',
    matters: nonZero,
  },
  {
    field: 'generationConfig.frequencyPenalty',
    to: { openai: 'mapped', anthropic: 'dropped' },
    note: 'OpenAI: frequency_penalty. Anthropic has no such knob: dropped (and named) unless 0.',
    matters: nonZero,
  },
  {
    field: 'generationConfig.seed',
    to: { openai: 'mapped', anthropic: 'dropped' },
    note: 'OpenAI: seed. Anthropic has none: dropped (and named).',
  },
  {
    field: 'generationConfig.responseLogprobs',
    to: { openai: 'mapped', anthropic: 'refused' },
    note: 'OpenAI: logprobs. Anthropic gives none: `true` refused.',
    matters: isTrue,
  },
  {
    field: 'generationConfig.logprobs',
    to: { openai: 'mapped', anthropic: 'refused' },
    note: 'OpenAI: top_logprobs. Anthropic: refused above 0.',
    matters: nonZero,
  },
  {
    field: 'generationConfig.responseMimeType',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'application/json → response_format (with the schema below); Anthropic has no bare JSON mode: refused there without a schema. Other types than text/plain and application/json (text/x.enum) refused.',
    partly: (v, body, to) => {
      if (v !== 'text/plain' && v !== 'application/json')
        return `generationConfig.responseMimeType (${JSON.stringify(v)})`;
      const config = asObject(body.generationConfig ?? body.generation_config);
      const schema =
        config.responseSchema ??
        config.response_schema ??
        config.responseJsonSchema ??
        config.response_json_schema;
      return to === 'anthropic' && v === 'application/json' && (schema === undefined || schema === null)
        ? 'generationConfig.responseMimeType (JSON without a schema)'
        : false;
    },
  },
  {
    field: 'generationConfig.responseSchema',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'As JSON Schema: response_format json_schema (output_config.format).',
  },
  {
    field: 'generationConfig.responseJsonSchema',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: 'As responseSchema.',
  },
  {
    field: 'generationConfig.responseModalities',
    to: ALL('refused', 'openai', 'anthropic'),
    note: 'Image or audio answers: refused unless only TEXT.',
    matters: notText,
  },
  {
    field: 'generationConfig.speechConfig',
    to: ALL('refused', 'openai', 'anthropic'),
    note: 'Spoken answers.',
  },
  {
    field: 'generationConfig.imageConfig',
    to: ALL('refused', 'openai', 'anthropic'),
    note: 'Image answers.',
  },
  {
    field: 'generationConfig.audioTimestamp',
    to: ALL('refused', 'openai', 'anthropic'),
    note: 'Timestamps of audio input: `true` refused.',
    matters: isTrue,
  },
  {
    field: 'generationConfig.thinkingConfig',
    to: ALL('mapped', 'openai', 'anthropic'),
    note: "thinkingBudget or thinkingLevel → reasoning_effort (extended thinking on Anthropic); includeThoughts: the other providers' reasoning is not returned as thought parts.",
  },
  {
    field: 'generationConfig.mediaResolution',
    to: ALL('ignored', 'openai', 'anthropic'),
    note: 'How many tokens Gemini spends reading media; the other model reads images its own way.',
  },
  {
    field: 'generationConfig.routingConfig',
    to: ALL('ignored', 'openai', 'anthropic'),
    note: "Vertex's model routing; the gateway already chose the channel.",
  },
  {
    field: 'generationConfig.modelSelectionConfig',
    to: ALL('ignored', 'openai', 'anthropic'),
    note: 'As routingConfig.',
  },
  {
    field: 'generationConfig.enableAffectiveDialog',
    to: ALL('refused', 'openai', 'anthropic'),
    note: 'Emotion-aware spoken dialog: `true` refused.',
    matters: isTrue,
  },
  {
    field: 'generationConfig.enableEnhancedCivicAnswers',
    to: ALL('refused', 'openai', 'anthropic'),
    note: "Google's election-answer mode: `true` refused.",
    matters: isTrue,
  },
];

/** Responses API → OpenAI chat (a channel without the Responses API), Anthropic, Gemini. */
const RESPONSES: FieldRule[] = [
  {
    field: 'model',
    to: { openai: 'carried', anthropic: 'carried', gemini: 'mapped' },
    note: 'Gemini: in the URL.',
  },
  {
    field: 'instructions',
    to: ALL('mapped', 'openai', 'anthropic', 'gemini'),
    note: 'A system message (system, systemInstruction).',
  },
  {
    field: 'input',
    to: ALL('mapped', 'openai', 'anthropic', 'gemini'),
    note: 'message, function_call and function_call_output items → messages and tool round trips; reasoning items left out (encrypted for OpenAI). Refused: other items (item_reference, built-in tool calls…), images by file id, files without their data (a file id goes to an OpenAI-format channel only), audio to Anthropic; on Anthropic and Gemini images by other than an http(s) or base64 data URL (gs:// on Gemini) and file data other than a base64 data URL; other content part types, anything but text in system, developer and assistant messages and in function_call_output.',
    partly: responsesItems,
  },
  {
    field: 'background',
    to: ALL('refused', 'openai', 'anthropic', 'gemini'),
    note: "A run kept on OpenAI's servers: `true` refused.",
    matters: isTrue,
  },
  {
    field: 'conversation',
    to: ALL('refused', 'openai', 'anthropic', 'gemini'),
    note: 'Conversation state held by OpenAI.',
  },
  {
    field: 'previous_response_id',
    to: ALL('refused', 'openai', 'anthropic', 'gemini'),
    note: 'History held by OpenAI: send the whole input instead (as Codex does).',
    matters: nonEmpty,
  },
  {
    field: 'prompt',
    to: ALL('refused', 'openai', 'anthropic', 'gemini'),
    note: 'A prompt template stored at OpenAI.',
  },
  {
    field: 'store',
    to: ALL('refused', 'openai', 'anthropic', 'gemini'),
    note: 'A response stored at OpenAI: `true` refused (Codex sends false).',
    matters: isTrue,
  },
  {
    field: 'include',
    to: ALL('ignored', 'openai', 'anthropic', 'gemini'),
    note: 'Extra detail of output items (encrypted reasoning, tool sources); the converted answer holds the message and calls, not such details.',
  },
  {
    field: 'max_output_tokens',
    to: ALL('mapped', 'openai', 'anthropic', 'gemini'),
    note: 'max_tokens (maxOutputTokens).',
  },
  {
    field: 'max_tool_calls',
    to: ALL('ignored', 'openai', 'anthropic', 'gemini'),
    note: 'Caps built-in tool calls, which are refused anyway.',
  },
  {
    field: 'metadata',
    to: ALL('ignored', 'openai', 'anthropic', 'gemini'),
    note: 'Tags of a response stored at OpenAI.',
  },
  {
    field: 'parallel_tool_calls',
    to: { openai: 'carried', anthropic: 'mapped', gemini: 'ignored' },
    note: 'Anthropic: `false` → disable_parallel_tool_use. Gemini has no switch (a list of calls either way).',
  },
  {
    field: 'prompt_cache_key',
    to: { openai: 'carried', anthropic: 'ignored', gemini: 'ignored' },
    note: "A cache-routing hint, also the session key of the gateway's channel affinity.",
  },
  {
    field: 'prompt_cache_retention',
    to: ALL('ignored', 'openai', 'anthropic', 'gemini'),
    note: 'How long OpenAI keeps the prompt cache; a cache setting does not change the answer.',
  },
  {
    field: 'reasoning',
    to: ALL('mapped', 'openai', 'anthropic', 'gemini'),
    note: "effort → reasoning_effort (thinking budget); summary: the other providers' reasoning is not summarised.",
  },
  {
    field: 'safety_identifier',
    to: { openai: 'carried', anthropic: 'mapped', gemini: 'ignored' },
    note: 'Anthropic: metadata.user_id (when `user` is not set).',
  },
  {
    field: 'service_tier',
    to: { openai: 'carried', anthropic: 'ignored', gemini: 'ignored' },
    note: "OpenAI's processing tier.",
  },
  {
    field: 'stream',
    to: ALL('mapped', 'openai', 'anthropic', 'gemini'),
    note: 'The channel streams; its events become Responses events.',
  },
  {
    field: 'stream_options',
    to: ALL('ignored', 'openai', 'anthropic', 'gemini'),
    note: "Event obfuscation of OpenAI's stream.",
  },
  {
    field: 'temperature',
    to: ALL('carried', 'openai', 'anthropic', 'gemini'),
    note: 'Anthropic: limited to 0–1.',
  },
  {
    field: 'top_p',
    to: { openai: 'carried', anthropic: 'carried', gemini: 'mapped' },
    note: 'Gemini: topP.',
  },
  {
    field: 'text',
    to: ALL('mapped', 'openai', 'anthropic', 'gemini'),
    note: 'format → response_format (output_config.format, responseJsonSchema); json_object refused on Anthropic. verbosity: see text.verbosity.',
    partly: (v, _body, to) =>
      to === 'anthropic' && asObject(asObject(v).format).type === 'json_object'
        ? 'text.format (json_object)'
        : false,
  },
  {
    field: 'text.verbosity',
    to: { openai: 'carried', anthropic: 'dropped', gemini: 'dropped' },
    note: 'Chat: verbosity. A length hint the others have no knob for: anything but `medium` dropped (and named).',
    matters: notMedium,
  },
  {
    field: 'tool_choice',
    to: ALL('mapped', 'openai', 'anthropic', 'gemini'),
    note: 'auto, none, required, a named function. allowed_tools, built-in and custom tool choices refused.',
    partly: toolChoiceObject('tool_choice'),
  },
  {
    field: 'tools',
    to: ALL('mapped', 'openai', 'anthropic', 'gemini'),
    note: 'Function tools; a `namespace` of function tools (Codex) as its functions named `<namespace>__<name>`, mapped back to namespace and name in function_call items. Built-in tools (web search, file search, computer use, MCP…) and custom tools (in a namespace too) refused.',
    partly: responsesTools,
  },
  {
    field: 'top_logprobs',
    to: { openai: 'mapped', anthropic: 'refused', gemini: 'mapped' },
    note: 'logprobs + top_logprobs (responseLogprobs + logprobs). Anthropic: refused above 0.',
    matters: nonZero,
  },
  {
    field: 'truncation',
    to: ALL('ignored', 'openai', 'anthropic', 'gemini'),
    note: "`auto` lets OpenAI drop old input when the context overflows; elsewhere an overflow is the channel's context error, never a silent change.",
  },
  {
    field: 'user',
    to: { openai: 'carried', anthropic: 'mapped', gemini: 'ignored' },
    note: 'Anthropic: metadata.user_id. Gemini has none.',
  },
];

export const CARRY_TABLES: Readonly<Record<WireFormat, readonly FieldRule[]>> = {
  openai: OPENAI,
  responses: RESPONSES,
  anthropic: ANTHROPIC,
  gemini: GEMINI,
};

/** The value at a dotted path; Gemini fields are found in camelCase or snake_case. */
function valueAt(body: JsonObject, path: string): Json | undefined {
  let value: Json | undefined = body as Json;
  for (const key of path.split('.')) {
    if (!isObject(value)) return undefined;
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    value = value[key] !== undefined ? value[key] : value[snake];
  }
  return value;
}

/**
 * The first field of `body` (in the caller's format `from`) that a channel speaking `to` cannot
 * carry, as the refusal names it, or null when everything it asks for can be carried or left out.
 */
export function uncarriedField(from: WireFormat, to: WireFormat, body: JsonObject): string | null {
  if (from === to) return null;
  for (const rule of CARRY_TABLES[from]) {
    const value = valueAt(body, rule.field);
    if (value === undefined || value === null) continue;
    const fate = rule.to[to];
    if (fate === 'refused' && (rule.matters ? rule.matters(value) : true)) return rule.label ?? rule.field;
    // A mapped field may still hold values or parts this target cannot take.
    const part = fate === 'mapped' && rule.partly ? rule.partly(value, body, to) : false;
    if (part) return part;
  }
  return null;
}

/**
 * The fields of `body` that a channel speaking `to` has no knob for and that are left out of the
 * converted call (the `dropped` rows, with a value that asks for something), in table order.
 */
export function droppedFields(from: WireFormat, to: WireFormat, body: JsonObject): string[] {
  if (from === to) return [];
  const out: string[] = [];
  for (const rule of CARRY_TABLES[from]) {
    if (rule.to[to] !== 'dropped') continue;
    const value = valueAt(body, rule.field);
    if (value === undefined || value === null) continue;
    if (rule.matters ? rule.matters(value) : true) out.push(rule.field);
  }
  return out;
}

/** The tables as Markdown (docs/agents.md holds this text). */
export function carryTables(): string {
  const sections: string[] = [];
  for (const from of ['openai', 'responses', 'anthropic', 'gemini'] as const) {
    const targets = CONVERSIONS[from];
    const head = `| Field | ${targets.map((t) => `→ ${FORMAT_NAMES[t]}`).join(' | ')} | How / why |`;
    const rule = `|---|${targets.map(() => '---|').join('')}---|`;
    const rows = CARRY_TABLES[from].map(
      (r) => `| \`${r.field}\` | ${targets.map((t) => r.to[t] ?? '—').join(' | ')} | ${r.note} |`,
    );
    sections.push([`#### From ${FORMAT_NAMES[from]}`, '', head, rule, ...rows].join('\n'));
  }
  return sections.join('\n\n');
}
