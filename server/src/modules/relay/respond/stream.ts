/**
 * The stream pump: upstream events decoded → the adapter's converter → (when formats differ) hub
 * chunks → the caller's format; events made from one upstream read go out in one write, with
 * backpressure. Usage is probed on the way (parsed only where needed), a quiet upstream times out,
 * pings keep idle clients connected, and a broken stream ends with an error event in the caller's format.
 */
import type { ServerResponse } from 'node:http';
import type { ClientSignal } from '../client-signal';
import { errorBody, RelayError, sanitizeUpstreamText } from '../errors';
import { errorIn200 } from './complete';
import { fromHubStream, toHubStream } from '../formats';
import { errorKeyAt, finder, usageKeyAt } from '../formats/json';
import { isObject, sameFormat, type Attempt } from '../lifecycle/attempt-plan';
import type { RelayContext } from '../relay-context';
import { type Deadline, unwatch, watch } from '../streaming/deadlines';
import { createEventDecoder, formatSse } from '../streaming/event-decoder';
import { readChunks } from '../streaming/read-chunks';
import { anthropicTextDelta, isAnthropicDelta, openaiTextDelta, UsageProbe } from '../streaming/usage-probe';
import type { JsonObject, SseEvent, UsageCounts, WireFormat } from '../types';
import { emptyUsage } from '../types';
import { timeoutError, upstreamError, type UpstreamResponse } from '../upstream/upstream-client';
import { markDropped } from './dropped';
import type { Outcome } from './outcome';
import { waitDrain } from './write';

export interface StreamSettings {
  /** StreamCacheQueueLength: events held back and written together (0 = none). */
  queueMax: number;
  /** Keep-alive comment interval (0 = off). */
  pingMs: number;
  /** STREAMING_TIMEOUT: seconds without an upstream event that end a stream (0 = none). */
  idleSeconds: number;
  /** Seconds to wait for the first event (0 = idleSeconds); with nothing sent yet, the next channel is tried. */
  firstEventSeconds: number;
}

/** Searches for `"model":"<name>"`, by the caller's model name (made once per name, not per stream). */
const modelFinders = new Map<string, (text: string, from?: number) => number>();
const MODEL_FINDERS_MAX = 1024;

function modelFinder(model: string): (text: string, from?: number) => number {
  let at = modelFinders.get(model);
  if (at === undefined) {
    // Names come from callers: the memo starts again rather than grow without bound.
    if (modelFinders.size >= MODEL_FINDERS_MAX) modelFinders.clear();
    modelFinders.set(model, (at = finder(`"model":${JSON.stringify(model)}`, 1)));
  }
  return at;
}

/** A stream the upstream ended with an error after part of the answer went out. */
class StreamBroken extends Error {}

/** Nothing of the answer has reached the client yet (another channel may still serve it). */
const untouched = (sentAny: boolean, batch: string, buffered: string[]) =>
  !sentAny && !batch && !buffered.length;

export async function relayStream(
  ctx: RelayContext,
  a: Attempt,
  up: UpstreamResponse,
  res: ServerResponse,
  signal: ClientSignal,
  settings: StreamSettings,
): Promise<Outcome> {
  const { req } = ctx;
  const native = a.adapter.format;
  const client = req.format;
  const passthrough = sameFormat(ctx, a.adapter);
  const probeFormat: WireFormat = passthrough ? (client === 'responses' ? 'responses' : native) : 'openai';
  const probe = new UsageProbe(probeFormat);
  const wantsUsage =
    client === 'openai' &&
    isObject(req.body?.stream_options) &&
    req.body.stream_options.include_usage === true;
  const adapterConv = a.adapter.createStreamConverter?.(a.areq);
  const toHub = passthrough ? null : toHubStream(native, ctx.model);
  const fromHub = passthrough ? null : fromHubStream(client, ctx.model, req.requestId, req.body ?? undefined);
  const textDeltas = native === 'openai' && fromHub?.pushText !== undefined;
  const anthropicDeltas = native === 'anthropic' && toHub?.pushText !== undefined;
  const queueMax = settings.queueMax;
  let buffered: string[] = [];
  let sentAny = false;
  // Set when the upstream's end marker has been read: what is left goes out with the end of the response.
  let upstreamDone = false;

  // Events made from one upstream read go out in one write (one syscall, not one per event). The
  // per-event steps below are synchronous (no promise per event): only the flush waits, for drain.
  let batch = '';
  const write = (s: string): void => {
    if (queueMax > 0) {
      buffered.push(s);
      if (buffered.length < queueMax) return;
      s = buffered.join('');
      buffered = [];
    }
    batch += s;
  };
  // A promise only when the client's socket is full (the upstream is paused until it drains).
  const flushBatch = (): Promise<void> | undefined => {
    if (!batch) return;
    const s = batch;
    batch = '';
    sentAny = true;
    return res.write(s) ? undefined : waitDrain(res);
  };

  // Gemini's streamGenerateContent without alt=sse answers a JSON array of its chunks, as Google's
  // REST API does; every other stream is server-sent events.
  const jsonArray = client === 'gemini' && req.jsonArray === true;
  let elements = 0;
  const frame = jsonArray
    ? (e: SseEvent): string => `${elements++ === 0 ? '[' : ',\r\n'}${e.data}`
    : formatSse;

  res.statusCode = 200;
  res.setHeader(
    'content-type',
    jsonArray ? 'application/json; charset=UTF-8' : 'text/event-stream; charset=utf-8',
  );
  res.setHeader('cache-control', 'no-cache');
  res.setHeader('connection', 'keep-alive');
  res.setHeader('x-accel-buffering', 'no');
  const dropped = markDropped(ctx, a, res);

  let ping: NodeJS.Timeout | null = null;
  if (settings.pingMs > 0 && !jsonArray) {
    const every = settings.pingMs;
    ping = setInterval(() => {
      if (!res.writableEnded) res.write(': ping\n\n');
    }, every);
    ping.unref();
  }

  const pending: SseEvent[] = [];
  const decoder = createEventDecoder(a.adapter.framing ?? 'sse', (e) => pending.push(e));
  // A chunk that names the client's model and carries no usage goes out as the upstream's bytes; its
  // text is only needed if the upstream never reports usage (held), and before the first token is timed
  // only if the text alone cannot tell whether it carries any.
  const modelAt = modelFinder(ctx.model);
  // Events that are not valid JSON are dropped (and counted), never passed on or allowed to end the stream.
  let badEvents = 0;
  const emitClient = (e: SseEvent): void => {
    const failure = streamFailure(native, e);
    if (failure) {
      // An error before any content: nothing is charged and another channel may answer.
      if (untouched(sentAny, batch, buffered)) throw upstreamError(a, failure.status, failure.text);
      throw new StreamBroken(upstreamError(a, failure.status, failure.text).messageIn('en'));
    }
    if (passthrough) {
      if (client === 'openai' || client === 'responses') {
        const data = e.data.trim();
        if (data === '[DONE]') {
          upstreamDone = true;
          return;
        }
        if (
          client === 'openai' &&
          modelAt(data) >= 0 &&
          data.charCodeAt(data.length - 1) === 125 &&
          data.charCodeAt(0) === 123
        ) {
          const at = usageKeyAt(data);
          if ((at < 0 || data.startsWith('"usage":null', at)) && probe.hold(data)) return write(formatSse(e));
        }
        let parsed: JsonObject;
        try {
          parsed = JSON.parse(data) as JsonObject;
        } catch {
          badEvents++;
          return;
        }
        probe.observe(e.event, parsed);
        if (client === 'openai' && parsed.usage && !wantsUsage) {
          if (Array.isArray(parsed.choices) && parsed.choices.length === 0) return;
          delete parsed.usage;
          return write(formatSse({ data: JSON.stringify({ ...parsed, model: ctx.model }) }));
        }
        if (client === 'openai' && parsed.model !== undefined && parsed.model !== ctx.model)
          return write(formatSse({ event: e.event, data: JSON.stringify({ ...parsed, model: ctx.model }) }));
        return write(formatSse(e));
      }
      if (e.event === 'message_stop') upstreamDone = true;
      // A text delta goes out as the upstream's bytes: its text is read only if the usage never comes
      // (and before the first token is timed, only if the text alone cannot tell whether it has any).
      if (
        client === 'anthropic' &&
        e.event === 'content_block_delta' &&
        isAnthropicDelta(e.data) &&
        probe.hold(e.data)
      )
        return write(formatSse(e));
      try {
        probe.observe(e.event, JSON.parse(e.data));
      } catch {
        badEvents++;
        return;
      }
      return write(frame(e));
    }
    // Converting: channel format → hub chunks → client format. An OpenAI chunk that is only a text
    // delta goes to a converter that takes bare text without being parsed.
    if (textDeltas) {
      const text = openaiTextDelta(e.data);
      const out = text !== null && fromHub?.pushText ? fromHub.pushText(text) : null;
      if (text !== null && out) {
        probe.observeText(text);
        for (const o of out) write(frame(o));
        return;
      }
    }
    if (anthropicDeltas) {
      const text = anthropicTextDelta(e.data);
      const hub = text !== null && toHub?.pushText ? toHub.pushText(text) : null;
      if (hub) {
        for (const chunk of hub) emitHub(chunk);
        return;
      }
    }
    let chunks: JsonObject[];
    try {
      chunks = toHub!.push(e);
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      badEvents++;
      return;
    }
    for (const chunk of chunks) emitHub(chunk);
  };
  const emitHub = (chunk: JsonObject): void => {
    probe.observe(undefined, chunk);
    if (client === 'openai' && chunk.usage && !wantsUsage) {
      if (Array.isArray(chunk.choices) && chunk.choices.length === 0) return;
      chunk = { ...chunk };
      delete chunk.usage;
    }
    for (const out of fromHub!.push(chunk)) write(frame(out));
  };
  // Each event through the adapter's converter when it has one, straight to the client path otherwise.
  const handle = adapterConv
    ? (e: SseEvent): void => {
        let converted: SseEvent[];
        try {
          converted = adapterConv.push(e);
        } catch (err) {
          if (!(err instanceof SyntaxError)) throw err;
          badEvents++;
          return;
        }
        for (const c of converted) emitClient(c);
      }
    : emitClient;
  // The events a chunk completed: the idle deadline counts from the chunk that completed them.
  const drain = () => {
    if (!pending.length) return;
    gotEvent = true;
    if (watching) deadline.at = idleMs ? Date.now() + idleMs : Infinity;
    for (let i = 0; i < pending.length; i++) handle(pending[i]);
    pending.length = 0;
  };

  // Deadlines: the first event must come within firstEventSeconds, each next one within idleSeconds of
  // the last (events, not bytes: a trickle that never completes an event does not keep a stream open).
  // Each chunk that completes events moves the deadline; one shared timer checks every open stream's.
  const idleMs = settings.idleSeconds > 0 ? settings.idleSeconds * 1000 : 0;
  const firstMs = settings.firstEventSeconds > 0 ? settings.firstEventSeconds * 1000 : idleMs;
  let idledOut = false;
  let gotEvent = false;
  const deadline: Deadline = {
    at: firstMs ? Date.now() + firstMs : Infinity,
    expire: () => {
      idledOut = true;
      up.body.destroy(new Error('streaming timeout'));
    },
    slot: -1,
  };
  const watching = firstMs > 0 || idleMs > 0;
  if (watching) watch(deadline);
  let broken = false;
  let brokenReason: string | null = null;
  let failed: RelayError | null = null;
  try {
    await readChunks(
      up.body,
      (chunk) => {
        decoder.feed(chunk);
        drain();
      },
      // What one upstream read brought, in one write; after the end marker what is left goes out
      // with the end of the response.
      () => (upstreamDone ? undefined : flushBatch()),
    );
    decoder.end();
    drain();
    if (adapterConv) for (const c of adapterConv.end()) emitClient(c);
    if (!passthrough) {
      for (const chunk of toHub!.end()) emitHub(chunk);
      for (const out of fromHub!.end()) write(frame(out));
    }
  } catch (err) {
    broken = true;
    if (idledOut) {
      brokenReason = gotEvent
        ? `the upstream sent nothing for ${settings.idleSeconds} s`
        : `no answer from the upstream within ${firstMs / 1000} s`;
      failed = timeoutError(brokenReason);
    } else if (err instanceof RelayError) {
      failed = err;
      brokenReason = err.messageIn('en');
    } else if (!signal.aborted) brokenReason = (err as Error).message;
  } finally {
    if (watching) unwatch(deadline);
    if (ping) clearInterval(ping);
  }
  if (broken && untouched(sentAny, batch, buffered) && !res.headersSent) {
    // Nothing reached the client: another channel may still answer (or the caller gets a clean error).
    throw (
      failed ??
      new RelayError(502, 'relay_upstream_failed', { reason: brokenReason ?? 'stream ended' }, '', null, true)
    );
  }
  if (!res.writableEnded && !res.destroyed) {
    // The rest, the error event and the end marker go out in one write with the end of the response.
    let tail = batch + buffered.join('');
    if (broken && brokenReason && !signal.aborted) {
      const msg = sanitizeUpstreamText(brokenReason, a.channel.keys);
      tail += frame(
        client === 'anthropic'
          ? { event: 'error', data: JSON.stringify(errorBody('anthropic', 500, msg)) }
          : { data: JSON.stringify(errorBody(client, 500, msg)) },
      );
    }
    if (client === 'openai') tail += 'data: [DONE]\n\n';
    if (jsonArray) tail += elements === 0 ? '[]' : ']';
    res.end(tail);
  }
  const outcome = streamOutcome(ctx, probe);
  if (broken) outcome.extra.stream_interrupted = true;
  if (badEvents) outcome.extra.stream_bad_events = badEvents;
  if (dropped.length > 0) outcome.extra.dropped_params = dropped;
  return outcome;
}

/**
 * An upstream error event in the channel's own format (Anthropic `event: error`, an OpenAI or Gemini
 * chunk that is an `{error}` object), with the status it names; null for anything else. Cheap for
 * ordinary chunks: only events that mention "error" are parsed.
 */
function streamFailure(native: WireFormat, e: SseEvent): { status: number; text: string } | null {
  if (e.event !== 'error' && errorKeyAt(e.data) < 0) return null;
  let json: JsonObject;
  try {
    json = JSON.parse(e.data) as JsonObject;
  } catch {
    return null;
  }
  if (!isObject(json)) return null;
  const status =
    e.event === 'error' && native === 'anthropic'
      ? errorIn200('anthropic', { ...json, type: 'error' })
      : errorIn200(native, json);
  return status ? { status, text: e.data } : null;
}

function streamOutcome(ctx: RelayContext, probe: UsageProbe): Outcome {
  const reported = probe.reportedUsage();
  // The tokenizer runs only when the upstream reported no completion tokens.
  const counted = reported && reported.completion_tokens > 0 ? 0 : probe.countedCompletion();
  let usage: UsageCounts;
  if (reported && (reported.completion_tokens > 0 || counted === 0)) usage = reported;
  else {
    usage = reported ?? emptyUsage();
    usage.prompt_tokens = usage.prompt_tokens || ctx.prompt();
    usage.completion_tokens = counted;
  }
  return { usage, firstTokenMs: probe.firstTokenAt ? probe.firstTokenAt - ctx.startedAt : 0, extra: {} };
}
