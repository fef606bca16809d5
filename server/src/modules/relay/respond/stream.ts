/**
 * The stream pump: upstream events decoded → the adapter's converter → (when formats differ) hub
 * chunks → the caller's format; events made from one upstream read go out in one write, with
 * backpressure. Usage is probed on the way (parsed only where needed), a quiet upstream times out,
 * pings keep idle clients connected, and a broken stream ends with an error event in the caller's format.
 */
import type { ServerResponse } from 'node:http';
import type { ClientSignal } from '../client-signal';
import { errorBody, RelayError, sanitizeUpstreamText } from '../errors';
import { fromHubStream, toHubStream } from '../formats';
import { isObject, sameFormat, type Attempt } from '../lifecycle/attempt-plan';
import type { RelayContext } from '../relay-context';
import { createEventDecoder, formatSse } from '../streaming/event-decoder';
import { UsageProbe } from '../streaming/usage-probe';
import type { JsonObject, SseEvent, UsageCounts, WireFormat } from '../types';
import { emptyUsage } from '../types';
import type { UpstreamResponse } from '../upstream/upstream-client';
import type { Outcome } from './outcome';
import { waitDrain } from './write';

export interface StreamSettings {
  /** StreamCacheQueueLength: events held back and written together (0 = none). */
  queueMax: number;
  /** Keep-alive comment interval (0 = off). */
  pingMs: number;
  /** STREAMING_TIMEOUT: seconds of upstream silence that end a stream (0 = none). */
  idleSeconds: number;
}

export async function relayStream(ctx: RelayContext, a: Attempt, up: UpstreamResponse, res: ServerResponse, signal: ClientSignal, settings: StreamSettings): Promise<Outcome> {
  const { req } = ctx;
  const native = a.adapter.format;
  const client = req.format;
  const passthrough = sameFormat(ctx, a.adapter);
  const probeFormat: WireFormat = passthrough ? (client === 'responses' ? 'responses' : native) : 'openai';
  const probe = new UsageProbe(probeFormat);
  const wantsUsage = client === 'openai' && isObject(req.body?.stream_options) && req.body.stream_options.include_usage === true;
  const adapterConv = a.adapter.createStreamConverter?.(a.areq);
  const toHub = passthrough ? null : toHubStream(native, ctx.model);
  const fromHub = passthrough ? null : fromHubStream(client, ctx.model, req.requestId);
  const queueMax = settings.queueMax;
  let buffered: string[] = [];
  let sentAny = false;
  // Set when the upstream's end marker has been read: what is left goes out with the end of the response.
  let upstreamDone = false;

  // Events made from one upstream read go out in one write (one syscall, not one per event).
  let batch = '';
  const write = async (s: string) => {
    if (queueMax > 0) {
      buffered.push(s);
      if (buffered.length < queueMax) return;
      s = buffered.join('');
      buffered = [];
    }
    batch += s;
  };
  const flushBatch = async () => {
    if (!batch) return;
    const s = batch;
    batch = '';
    sentAny = true;
    if (!res.write(s)) await waitDrain(res);
  };

  res.statusCode = 200;
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache');
  res.setHeader('connection', 'keep-alive');
  res.setHeader('x-accel-buffering', 'no');

  let ping: NodeJS.Timeout | null = null;
  if (settings.pingMs > 0) {
    const every = settings.pingMs;
    ping = setInterval(() => {
      if (!res.writableEnded) res.write(': ping\n\n');
    }, every);
    ping.unref();
  }

  const pending: SseEvent[] = [];
  const decoder = createEventDecoder(a.adapter.framing ?? 'sse', (e) => pending.push(e));
  // A chunk that names the client's model and carries no usage goes out as the upstream's bytes; once
  // the first token is timed, its text is only needed if the upstream never reports usage (deferred).
  const modelField = `"model":${JSON.stringify(ctx.model)}`;
  const emitClient = async (e: SseEvent) => {
    if (passthrough) {
      if (client === 'openai' || client === 'responses') {
        const data = e.data.trim();
        if (data === '[DONE]') {
          upstreamDone = true;
          return;
        }
        if (client === 'openai' && probe.firstTokenAt && data.includes(modelField)) {
          const at = data.indexOf('"usage"');
          if (at < 0 || data.startsWith('"usage":null', at)) {
            probe.defer(data);
            return write(formatSse(e));
          }
        }
        let parsed: JsonObject | null;
        try {
          parsed = JSON.parse(data) as JsonObject;
        } catch {
          parsed = null;
        }
        if (parsed) {
          probe.observe(e.event, parsed);
          if (client === 'openai' && parsed.usage && !wantsUsage) {
            if (Array.isArray(parsed.choices) && parsed.choices.length === 0) return;
            delete parsed.usage;
            return write(formatSse({ data: JSON.stringify({ ...parsed, model: ctx.model }) }));
          }
          if (client === 'openai' && parsed.model !== undefined && parsed.model !== ctx.model)
            return write(formatSse({ event: e.event, data: JSON.stringify({ ...parsed, model: ctx.model }) }));
        }
        return write(formatSse(e));
      }
      if (e.event === 'message_stop') upstreamDone = true;
      try {
        probe.observe(e.event, JSON.parse(e.data));
      } catch {
        /* not JSON: forwarded as is */
      }
      return write(formatSse(e));
    }
    // Converting: channel format → hub chunks → client format.
    for (const chunk of toHub!.push(e)) await emitHub(chunk);
  };
  const emitHub = async (chunk: JsonObject) => {
    probe.observe(undefined, chunk);
    if (client === 'openai' && chunk.usage && !wantsUsage) {
      if (Array.isArray(chunk.choices) && chunk.choices.length === 0) return;
      chunk = { ...chunk };
      delete chunk.usage;
    }
    for (const out of fromHub!.push(chunk)) await write(formatSse(out));
  };
  const process = async (e: SseEvent) => {
    const converted = adapterConv ? adapterConv.push(e) : [e];
    for (const c of converted) await emitClient(c);
  };

  let idle: NodeJS.Timeout | null = null;
  const idleMs = settings.idleSeconds > 0 ? settings.idleSeconds * 1000 : 0;
  let idledOut = false;
  // One timer per stream: each chunk only notes the time; the timer re-arms for what is left of the quiet spell.
  let lastChunkAt = 0;
  const onIdle = () => {
    const quiet = Date.now() - lastChunkAt;
    if (quiet < idleMs) {
      idle = setTimeout(onIdle, idleMs - quiet);
      return;
    }
    idledOut = true;
    (up.body as unknown as { destroy(error: Error): void }).destroy(new Error('streaming timeout'));
  };
  const armIdle = () => {
    if (!idleMs) return;
    lastChunkAt = Date.now();
    idle ??= setTimeout(onIdle, idleMs);
  };
  let broken = false;
  let upstreamError: string | null = null;
  try {
    armIdle();
    for await (const chunk of up.body) {
      armIdle();
      decoder.feed(chunk);
      while (pending.length) await process(pending.shift()!);
      if (!upstreamDone) await flushBatch();
    }
    decoder.end();
    while (pending.length) await process(pending.shift()!);
    if (adapterConv) for (const c of adapterConv.end()) await emitClient(c);
    if (!passthrough) {
      for (const chunk of toHub!.end()) await emitHub(chunk);
      for (const out of fromHub!.end()) await write(formatSse(out));
    }
  } catch (err) {
    broken = true;
    if (idledOut) upstreamError = `the upstream sent nothing for ${settings.idleSeconds} s`;
    else if (!signal.aborted) upstreamError = (err as Error).message;
  } finally {
    if (idle) clearTimeout(idle);
    if (ping) clearInterval(ping);
  }
  if (broken && !sentAny && !batch && !buffered.length && !res.headersSent) {
    // Nothing reached the client: another channel may still answer (or the caller gets a clean error).
    throw new RelayError(502, 'relay_upstream_failed', { reason: upstreamError ?? 'stream ended' }, '', null, true);
  }
  if (!res.writableEnded && !res.destroyed) {
    // The rest, the error event and the end marker go out in one write with the end of the response.
    let tail = batch + buffered.join('');
    if (broken && upstreamError && !signal.aborted) {
      const msg = sanitizeUpstreamText(upstreamError);
      tail += formatSse(client === 'anthropic' ? { event: 'error', data: JSON.stringify(errorBody('anthropic', 500, msg)) } : { data: JSON.stringify(errorBody(client, 500, msg)) });
    }
    if (client === 'openai') tail += 'data: [DONE]\n\n';
    res.end(tail);
  }
  const outcome = streamOutcome(ctx, probe);
  if (broken) outcome.extra.stream_interrupted = true;
  return outcome;
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
