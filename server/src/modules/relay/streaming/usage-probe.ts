import { anthropicUsage } from '../formats/anthropic';
import { geminiUsage } from '../formats/gemini';
import type { UsageCounts, WireFormat } from '../types';
import { openaiUsage, textTokens } from '../usage';
import { asObject, finder } from '../formats/json';

/**
 * Delivered text held for the tokenizer before a batch of it is counted (bounds the memory per stream).
 * The count is needed only when the upstream reports no usage, which it does at the end of the stream:
 * counting as the text arrives would run (and, the first time, load) the tokenizer for every long answer
 * whose usage then comes anyway. So the text waits, up to this many characters.
 */
const TOKENIZE_AT = 65_536;
/** Held text is copied into one string every this many characters (a rope of small pieces costs more). */
const FLATTEN_EVERY = 4096;
/** Raw chunk text held unparsed before it is read for the tokenizer (bounds the memory per stream). */
const DEFER_LIMIT = 16_384;

/**
 * Watches a stream's events (in one wire format) for the usage the upstream reports, and counts the
 * delivered text with the tokenizer in fixed-size batches, for streams that report none (or are cut).
 * Memory stays constant in the length of the answer.
 */
export class UsageProbe {
  private reported: UsageCounts | null = null;
  private anthropicInput: UsageCounts | null = null;
  private pending = '';
  /** Length of `pending` when it was last made one string. */
  private flatAt = 0;
  private counted = 0;
  private deferred: string[] = [];
  private deferredSize = 0;
  /** Time of the first content delta (ms since epoch), for the log's first-token time. */
  firstTokenAt = 0;

  constructor(private readonly format: WireFormat) {}

  observe(event: string | undefined, data: unknown): void {
    const d = asObject(data);
    switch (this.format) {
      case 'anthropic':
        return this.anthropic(event ?? (typeof d.type === 'string' ? d.type : ''), d);
      case 'gemini':
        if (d.usageMetadata) this.reported = geminiUsage(d.usageMetadata);
        for (const c of Array.isArray(d.candidates) ? d.candidates : [])
          for (const p of Array.isArray(asObject(asObject(c).content).parts)
            ? (asObject(asObject(c).content).parts as unknown[])
            : [])
            this.text(
              asObject(p).text ?? (asObject(p).functionCall ? JSON.stringify(asObject(p).functionCall) : ''),
            );
        return;
      case 'responses': {
        const type = typeof d.type === 'string' ? d.type : (event ?? '');
        if (type === 'response.completed' || type === 'response.incomplete')
          this.reported = openaiUsage(asObject(d.response).usage) ?? this.reported;
        else if (type.endsWith('.delta')) this.text(d.delta);
        return;
      }
      default: {
        if (d.usage) this.reported = openaiUsage(d.usage) ?? this.reported;
        for (const c of Array.isArray(d.choices) ? d.choices : []) {
          const delta = asObject(asObject(c).delta);
          this.text(delta.content);
          this.text(delta.reasoning_content);
          if (Array.isArray(delta.tool_calls))
            for (const t of delta.tool_calls)
              this.text(asObject(asObject(t).function).arguments ?? asObject(asObject(t).function).name);
          this.text(asObject(c).text);
        }
      }
    }
  }

  /**
   * Holds an OpenAI chunk or an Anthropic `content_block_delta` like `defer`, also before the first token
   * is timed when the event's text tells without a parse whether it carries any (the role-only first
   * chunk, a plain first token); false when only a parse can tell, the event then left to the caller to
   * parse and `observe`.
   */
  hold(data: string): boolean {
    if (!this.firstTokenAt) {
      const text = this.heldText(data);
      if (text === null) return false;
      if (text) this.firstTokenAt = Date.now();
    }
    this.defer(data);
    return true;
  }

  /**
   * Holds an event's JSON text (an OpenAI chunk, an Anthropic `content_block_delta`) that carries no usage
   * and whose text only matters for the tokenizer fallback: it is read only if the upstream's usage never
   * comes, or when the held text passes the limit.
   */
  defer(data: string): void {
    this.deferred.push(data);
    this.deferredSize += data.length;
    if (this.deferredSize >= DEFER_LIMIT) this.readDeferred();
  }

  private readDeferred(): void {
    const held = this.deferred;
    this.deferred = [];
    this.deferredSize = 0;
    for (const data of held) {
      // An event whose one text value can be read from its text needs no parse (most of a long answer's).
      const text = this.heldText(data);
      if (text !== null) {
        this.text(text);
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        continue;
      }
      this.observe(undefined, parsed);
    }
  }

  /** What `observe` does with an OpenAI chunk that is nothing but a text delta (`openaiTextDelta`). */
  observeText(text: string): void {
    this.text(text);
  }

  /** The text a held event carries, read without a parse; null when only a parse can tell. */
  private heldText(data: string): string | null {
    if (this.format === 'openai') return openaiChunkContent(data);
    if (this.format === 'anthropic') return anthropicDeltaContent(data);
    return null;
  }

  private anthropic(type: string, d: Record<string, unknown>): void {
    if (type === 'message_start') this.anthropicInput = anthropicUsage(asObject(d.message).usage);
    else if (type === 'message_delta' && d.usage) {
      const out = anthropicUsage({ ...asObject(asObject(d.message).usage), ...asObject(d.usage) });
      const input = this.anthropicInput;
      this.reported =
        input && !out.prompt_tokens
          ? {
              ...out,
              prompt_tokens: input.prompt_tokens,
              cached_tokens: input.cached_tokens,
              cache_creation_tokens: input.cache_creation_tokens,
            }
          : out;
      // message_delta repeats the cache counts but not their one-hour part: message_start has it.
      if (input?.cache_creation_1h_tokens && this.reported.cache_creation_1h_tokens === undefined)
        this.reported.cache_creation_1h_tokens = Math.min(
          input.cache_creation_1h_tokens,
          this.reported.cache_creation_tokens,
        );
    } else if (type === 'content_block_delta') {
      const delta = asObject(d.delta);
      this.text(delta.text ?? delta.thinking ?? delta.partial_json);
    }
  }

  private text(v: unknown): void {
    if (typeof v !== 'string' || !v) return;
    if (!this.firstTokenAt) this.firstTokenAt = Date.now();
    this.pending += v;
    const size = this.pending.length;
    if (size >= TOKENIZE_AT) {
      this.counted += textTokens(this.pending);
      this.pending = '';
      this.flatAt = 0;
    } else if (size - this.flatAt >= FLATTEN_EVERY) {
      this.pending = flat(this.pending);
      this.flatAt = size;
    }
  }

  /** Completion tokens counted from the delivered text. */
  countedCompletion(): number {
    if (this.deferred.length) this.readDeferred();
    if (this.pending) {
      this.counted += textTokens(this.pending);
      this.pending = '';
      this.flatAt = 0;
    }
    return this.counted;
  }

  /** What the upstream reported (Anthropic: input from message_start even if message_delta never came). */
  reportedUsage(): UsageCounts | null {
    return this.reported ?? this.anthropicInput;
  }
}

/** Written so that the character read in `flat` is used (an optimising compiler could drop an unused read). */
let _flatRead = 0;
/**
 * A string made of many appended pieces, as one string: V8 copies it into a flat string on the first read
 * of a character, and the pieces become garbage.
 */
function flat(s: string): string {
  _flatRead = s.charCodeAt(0);
  return s;
}

/** Searches for JSON keys that start after the quote (JSON is full of quotes: a search starting on one stops at each). */
const keySearches = (keys: string[]) => keys.map((key) => ({ at: finder(key, 1), length: key.length }));
/** The keys of an OpenAI chunk whose string values `observe` counts as text (`tool_calls` aside). */
const OPENAI_TEXT_KEYS = keySearches(['"content"', '"reasoning_content"', '"text"']);
const toolCallsAt = finder('"tool_calls"', 1);

/**
 * The one text value an event's JSON text (one object) carries under `keys`, read without parsing it:
 * '' for none, or null when only a parse can tell. Read only in text without a backslash, where every
 * quote delimits a string, so `"content"` followed by a colon is that key and nothing else, and the next
 * quote after a value's opening one ends it; each key must be followed by `:""` or `:null` (none) or a
 * colon and a string; any other spelling (spaces, an array), a backslash, or a second value (whose order
 * a parse keeps) leaves it to the parser. The keys are found at any depth: in OpenAI's chunk schema the
 * only string values under these keys are the ones `observe` reads.
 */
function textOf(json: string, keys: ReturnType<typeof keySearches>): string | null {
  if (json.indexOf('\\') >= 0) return null;
  let text = '';
  for (const key of keys)
    for (let at = key.at(json); at >= 0; at = key.at(json, at + key.length)) {
      const v = at + key.length;
      if (json.charCodeAt(v) !== 0x3a) return null;
      if (json.startsWith('""', v + 1) || json.startsWith('null', v + 1)) continue;
      if (json.charCodeAt(v + 1) !== 0x22 || text) return null;
      const end = json.indexOf('"', v + 2);
      if (end < 0) return null;
      text = json.slice(v + 2, end);
    }
  return text;
}

/**
 * The text an OpenAI chunk carries for `observe` (`textOf` its delta's and choice's text keys), null
 * when only a parse can tell, as for any chunk with `tool_calls`.
 */
export function openaiChunkContent(json: string): string | null {
  const text = textOf(json, OPENAI_TEXT_KEYS);
  return text === null || toolCallsAt(json) >= 0 ? null : text;
}

/**
 * The longest event text matched against the grammars below. Up to about this length a match costs less
 * than `JSON.parse` (a quarter of it at 250 bytes); past it, more (twice at 16 KB, and V8's regular
 * expressions run out of backtracking stack on a 10 MB string): longer events are parsed.
 */
const GRAMMAR_MAX = 1024;
/** The inside of a JSON string, as JSON allows it: no quote or raw control character, only JSON's escapes. */
const STRING_BODY = String.raw`(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*`;
/** A JSON number (no leading zeros, no plus sign). */
const NUMBER = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`;
/** A member with a scalar value (no object, no array), any key but `choices`. */
const SCALAR = String.raw`"(?!choices")[A-Za-z_]+":(?:"${STRING_BODY}"|${NUMBER}|null|true|false)`;
/** The members of a choice besides its delta that say nothing: the first choice, not finished. */
const QUIET = String.raw`(?:"index":0|"logprobs":null|"finish_reason":null)`;
/**
 * An OpenAI chunk that is only a text delta, as a strict grammar (a part of JSON's): an object whose
 * members are scalars but for `choices`, an array of one choice whose members are `index` 0, `logprobs`
 * and `finish_reason` null and one `delta`, whose members are an optional assistant role, the `content`
 * string and an optional null refusal. Text it matches means exactly that to any reader, however its
 * members are ordered.
 */
const TEXT_DELTA = new RegExp(
  String.raw`^\{(?:${SCALAR},)*"choices":\[\{(?:${QUIET},)*"delta":\{(?:"role":"assistant",)?"content":"(${STRING_BODY})"(?:,"refusal":null)?\}(?:,${QUIET})*\}\](?:,${SCALAR})*\}$`,
);

/**
 * The text of an OpenAI chunk that is nothing but a text delta of its one choice (`TEXT_DELTA`), read
 * without parsing the chunk (its content string alone is unescaped, when it has escapes); null for any
 * other chunk, which is parsed: usage, a finish reason, reasoning, tool calls, a second choice, another
 * member order inside the delta, whitespace between tokens, text that is not JSON (a raw control
 * character in a string, an escape JSON does not have, a number with a leading zero), or a chunk longer
 * than `GRAMMAR_MAX`.
 */
export function openaiTextDelta(json: string): string | null {
  if (json.length > GRAMMAR_MAX) return null;
  const m = TEXT_DELTA.exec(json);
  return m === null ? null : unescaped(m[1]);
}

/** How Anthropic writes a content block's delta, up to its type. */
const ANTHROPIC_DELTA_START = String.raw`^\{"type":"content_block_delta","index":(?:0|[1-9]\d*),"delta":\{"type":`;
/**
 * Any delta of a content block as Anthropic writes it (members in its order): text, thinking, tool input
 * or signature, its kind and its string captured. One type, one string: what `observe` reads of it
 * (`text ?? thinking ?? partial_json`) is that string, or nothing for a signature.
 */
const ANTHROPIC_DELTA = new RegExp(
  String.raw`${ANTHROPIC_DELTA_START}"(text_delta","text|thinking_delta","thinking|input_json_delta","partial_json|signature_delta","signature)":"(${STRING_BODY})"\}\}$`,
);
const TEXT_KIND = 'text_delta","text';
const SIGNATURE_KIND = 'signature_delta","signature';

/** An event's text matched against `ANTHROPIC_DELTA` (kind, string); null when it is not one or too long. */
function anthropicDelta(json: string): RegExpExecArray | null {
  return json.length > GRAMMAR_MAX ? null : ANTHROPIC_DELTA.exec(json);
}

/** Whether an event's text is a content block's delta as Anthropic writes it (so valid JSON, of that meaning). */
export function isAnthropicDelta(json: string): boolean {
  return json.length <= GRAMMAR_MAX && ANTHROPIC_DELTA.test(json);
}

/**
 * The text of an Anthropic `content_block_delta` of a text block, read without parsing the event (its
 * text string alone is unescaped, when it has escapes); null for any other event, which is parsed.
 */
export function anthropicTextDelta(json: string): string | null {
  const m = anthropicDelta(json);
  return m === null || m[1] !== TEXT_KIND ? null : unescaped(m[2]);
}

/**
 * The text an Anthropic `content_block_delta` carries for `observe`, read without parsing it ('' for a
 * signature); null for an event not in Anthropic's shape, which is parsed.
 */
export function anthropicDeltaContent(json: string): string | null {
  const m = anthropicDelta(json);
  if (m === null) return null;
  return m[1] === SIGNATURE_KIND ? '' : unescaped(m[2]);
}

/** The inside of a JSON string (between its quotes, as the grammars capture it) as the string it denotes. */
function unescaped(text: string): string | null {
  if (text.indexOf('\\') < 0) return text;
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return null;
  }
}
