/**
 * Prometheus metrics of one node, served at `/metrics` (see docs/metrics.md).
 *
 * Recording is on the relay's hot path, so it costs a Map lookup and a few additions: every series is
 * a plain object kept here (see metric-families.ts) and prom-client reads them when Prometheus scrapes.
 * Label values are bounded: HTTP routes are Fastify's route patterns (never the raw URL), model names
 * only those the node knows (price tables or channel abilities, else `other`), channels are ids.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { ComputedFamily, CounterFamily, CounterSeries, HistogramFamily, register } from './metric-families';

/**
 * The process metrics (CPU, memory, event loop, GC): one set per process, made on the first scrape.
 * Their observers (GC, event-loop delay) live as long as the process, so they are neither made per app
 * nor made before anyone asks for them.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The route label of a request no route matched (404s for arbitrary paths stay one series). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The model label of a model the node does not know (price tables, abilities), or none at all. */
export const OTHER_MODEL = 'other';
/** The channel label of a relay request that never reached a channel. */
export const NO_CHANNEL = 'none';

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const UPSTREAM_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];
const MAX_MODEL_LABELS = 10_000;

export type CacheName = 'token' | 'key_hash' | 'user';

@Injectable()
export class MetricsService {
  readonly enabled: boolean;
  readonly registry = new Registry();
  private readonly tokenDigest: Buffer | null;

  private readonly httpRequests = new CounterFamily(
    'gatehouse_http_requests_total',
    'HTTP requests answered, by method, route pattern and status.',
  );
  private readonly httpDuration = new HistogramFamily(
    'gatehouse_http_request_duration_seconds',
    'Time to answer an HTTP request (until the last byte is handed to the socket), by method, route pattern and status.',
    HTTP_BUCKETS,
  );
  private readonly relayRequests = new CounterFamily(
    'gatehouse_relay_requests_total',
    'Model requests relayed, by wire format, endpoint, requested model, channel id and status answered.',
  );
  private readonly upstreamLatency = new HistogramFamily(
    'gatehouse_relay_upstream_latency_seconds',
    'Time from sending a request upstream to its response headers, by channel id.',
    UPSTREAM_BUCKETS,
  );
  private readonly firstToken = new HistogramFamily(
    'gatehouse_relay_first_token_seconds',
    'Streamed requests: time from the request reaching the gateway to the first token from upstream, by channel id.',
    UPSTREAM_BUCKETS,
  );
  private readonly quota = new CounterFamily(
    'gatehouse_relay_quota_total',
    'Quota charged for successful model requests, by requested model.',
  );
  private readonly tokens = new CounterFamily(
    'gatehouse_relay_tokens_total',
    'Tokens billed for successful model requests, by requested model and type (prompt, completion).',
  );

  /** Plain fields, read at scrape time. */
  activeStreams = 0;
  streamsTotal = 0;
  channelReloads = 0;
  readonly cacheHits: Record<CacheName, number> = { token: 0, key_hash: 0, user: 0 };
  readonly cacheMisses: Record<CacheName, number> = { token: 0, key_hash: 0, user: 0 };
  /** Channel affinity decisions: the session's channel served, a new session, a session moved. */
  readonly channelAffinity = { hit: 0, new: 0, moved: 0 };

  /** Per model label: its quota and token series, found with one lookup. */
  private readonly perModel = new Map<
    string,
    { quota: CounterSeries; prompt: CounterSeries; completion: CounterSeries }
  >();
  private readonly modelLabels = new Map<string, string>();
  private catalog: (model: string) => boolean = () => false;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.enabled = config.metrics.enabled;
    this.tokenDigest = config.metrics.token ? digest(config.metrics.token) : null;
    if (!this.enabled) return;
    for (const f of [
      this.httpRequests,
      this.httpDuration,
      this.relayRequests,
      this.upstreamLatency,
      this.firstToken,
      this.quota,
      this.tokens,
    ])
      register(this.registry, f);
    const caches = Object.keys(this.cacheHits) as CacheName[];
    register(
      this.registry,
      new ComputedFamily(
        'gatehouse_relay_cache_hits_total',
        'Relay cache lookups answered from memory, by cache.',
        'counter',
        () => caches.map((c) => [{ cache: c }, this.cacheHits[c]]),
      ),
    );
    register(
      this.registry,
      new ComputedFamily(
        'gatehouse_relay_cache_misses_total',
        'Relay cache lookups that had to compute or read the database, by cache.',
        'counter',
        () => caches.map((c) => [{ cache: c }, this.cacheMisses[c]]),
      ),
    );
    register(
      this.registry,
      new ComputedFamily(
        'gatehouse_relay_channel_reloads_total',
        'Full reloads of the in-memory channel and ability index.',
        'counter',
        () => [[{}, this.channelReloads]],
      ),
    );
    register(
      this.registry,
      new ComputedFamily(
        'gatehouse_relay_active_streams',
        'Streamed answers being relayed right now.',
        'gauge',
        () => [[{}, this.activeStreams]],
      ),
    );
    register(
      this.registry,
      new ComputedFamily(
        'gatehouse_relay_channel_affinity_total',
        'Requests of agent sessions routed by channel affinity, by result (hit: the session kept its channel; new; moved: it changed channel).',
        'counter',
        () => (['hit', 'new', 'moved'] as const).map((r) => [{ result: r }, this.channelAffinity[r]]),
      ),
    );
    register(
      this.registry,
      new ComputedFamily('gatehouse_relay_streams_total', 'Streamed answers started.', 'counter', () => [
        [{}, this.streamsTotal],
      ]),
    );
  }

  // ---------------------------------------------------------------- HTTP

  /** Fastify onResponse hook: every request Fastify answered, labelled by its route pattern. */
  readonly onResponse = (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    this.http(req.method, req.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime);
    done();
  };

  /**
   * A request answered outside Fastify (the relay's raw fast path): recorded when its response closes,
   * as 499 when the client left before any answer was written.
   */
  trackRaw(res: ServerResponse, method: string, route: string): void {
    const started = performance.now();
    res.on('close', () =>
      this.http(method, route, res.headersSent ? res.statusCode : 499, performance.now() - started),
    );
  }

  http(method: string, route: string, status: number, ms: number): void {
    const key = `${method} ${status} ${route}`;
    const labels = () => ({ method, route, status: String(status) });
    this.httpRequests.at(key, labels).value++;
    this.httpDuration.observe(this.httpDuration.at(key, labels), ms / 1000);
  }

  // ---------------------------------------------------------------- relay

  /** Tells which model names are worth a label of their own (the rest count as `other`). */
  useModelCatalog(known: (model: string) => boolean): void {
    this.catalog = known;
    this.modelLabels.clear();
  }

  modelLabel(model: string): string {
    let label = this.modelLabels.get(model);
    if (label === undefined) {
      if (this.modelLabels.size >= MAX_MODEL_LABELS) this.modelLabels.clear();
      label = model && this.catalog(model) ? model : OTHER_MODEL;
      this.modelLabels.set(model, label);
    }
    return label;
  }

  /** One model request answered (any status), with the last channel it reached (0: none). */
  relayRequest(format: string, endpoint: string, model: string, channelId: number, status: number): void {
    const m = this.modelLabel(model);
    this.relayRequests.at(`${format} ${endpoint} ${status} ${channelId} ${m}`, () => ({
      format,
      endpoint,
      model: m,
      channel: channelId ? String(channelId) : NO_CHANNEL,
      status: String(status),
    })).value++;
  }

  /** Response headers received from a channel after `ms`. */
  upstream(channelId: number, ms: number): void {
    this.upstreamLatency.observe(
      this.upstreamLatency.at(channelId, () => ({ channel: String(channelId) })),
      ms / 1000,
    );
  }

  /** A successful model request settled: its charge, its tokens, and for a stream the time to the first token. */
  settled(
    model: string,
    channelId: number,
    quota: number,
    promptTokens: number,
    completionTokens: number,
    firstTokenMs: number,
  ): void {
    const m = this.modelLabel(model);
    let per = this.perModel.get(m);
    if (per === undefined)
      this.perModel.set(
        m,
        (per = {
          quota: this.quota.at(m, () => ({ model: m })),
          prompt: this.tokens.at(`prompt ${m}`, () => ({ model: m, type: 'prompt' })),
          completion: this.tokens.at(`completion ${m}`, () => ({ model: m, type: 'completion' })),
        }),
      );
    per.quota.value += quota;
    per.prompt.value += promptTokens;
    per.completion.value += completionTokens;
    if (firstTokenMs > 0)
      this.firstToken.observe(
        this.firstToken.at(channelId, () => ({ channel: String(channelId) })),
        firstTokenMs / 1000,
      );
  }

  /** Counts a streamed answer as active until `relaying` settles. */
  trackStream<T>(relaying: Promise<T>): Promise<T> {
    this.activeStreams++;
    this.streamsTotal++;
    return relaying.finally(() => this.activeStreams--);
  }

  // ---------------------------------------------------------------- exposition

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition; model labels are re-decided after each scrape (prices and channels change). */
  async exposition(): Promise<string> {
    const text = (await processMetrics().metrics()) + (await this.registry.metrics());
    this.modelLabels.clear();
    return text;
  }

  /** True when no METRICS_TOKEN is set, or the Authorization header carries it (compared in constant time). */
  authorized(authorization: string | undefined): boolean {
    if (!this.tokenDigest) return true;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return !!m && timingSafeEqual(digest(m[1]), this.tokenDigest);
  }
}

/** Fixed-length digests, so the comparison time does not depend on where or whether lengths differ. */
function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
