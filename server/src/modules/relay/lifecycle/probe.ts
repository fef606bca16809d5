/**
 * Channel tests: a minimal non-streamed chat request to one channel, planned exactly as live traffic
 * is (mapping, conversion, credentials, overrides) but unbilled, unlimited and without failover.
 */
import { Injectable } from '@nestjs/common';
import { adapterForChannel as adapterFor } from '../adapter-registry';
import type { ChannelSnapshot } from '../channel-selector';
import { mapModel } from '../channel-selector';
import { RelayError, relayFail, sanitizeUpstreamText, toRelayError } from '../errors';
import type { InboundRequest } from '../relay-context';
import { aggregateStream } from '../streaming/aggregate';
import type { JsonObject } from '../types';
import { addressRefused, upstreamError, UpstreamClient } from '../upstream/upstream-client';
import { blockedIn } from '../../../common/safe-http';
import { AttemptPlanner, PlanContext } from './attempt-plan';

export interface ProbeResult {
  ok: boolean;
  status: number;
  message: string;
  ms: number;
}

@Injectable()
export class ChannelProbe {
  constructor(
    private readonly planner: AttemptPlanner,
    private readonly upstream: UpstreamClient,
  ) {}

  /** The upstream's verdict on `model` and the time it took; the caller decides what a slow or failed test means. */
  async run(channel: ChannelSnapshot, model: string): Promise<ProbeResult> {
    const started = Date.now();
    const req: InboundRequest = {
      format: 'openai',
      mode: 'chat',
      body: { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 },
      raw: null,
      contentType: 'application/json',
      pathModel: null,
      pathStream: false,
      key: null,
      ip: '',
      requestId: `test-${channel.id}-${started}`,
      lang: 'en',
      userAgent: 'channel-test',
    };
    const fail = (status: number, message: string): ProbeResult => ({
      ok: false,
      status,
      message,
      ms: Date.now() - started,
    });
    try {
      const adapter = adapterFor(channel.type, mapModel(channel.modelMapping, model) ?? model);
      if (!adapter || !adapter.modes.includes('chat')) throw relayFail(400, 'relay_mode_unsupported');
      const ctx: PlanContext = {
        req,
        model,
        stream: false,
        group: '',
        prompt: () => 0,
        pinnedChannel: channel.id,
      };
      const index = { byId: new Map([[channel.id, { ...channel, enabled: true }]]), tiers: new Map() };
      const a = await this.planner.plan(ctx, 0, new Set(), index);
      const up = await this.upstream.probe(a).catch((err: Error) => {
        if (err instanceof RelayError) throw err;
        const blocked = blockedIn(err);
        if (blocked) throw addressRefused(blocked.target);
        // Unreachable, refused, timed out: the relay's own message, not an internal error.
        throw new RelayError(
          502,
          'relay_upstream_failed',
          { reason: sanitizeUpstreamText(err.message || 'network error') },
          '',
          'upstream_error',
          true,
        );
      });
      if (up.status >= 400) return fail(up.status, upstreamError(a, up.status, up.text).messageIn('en'));
      if (a.adapter.createStreamAggregator && up.contentType.includes('event-stream'))
        aggregateStream(a.adapter, a.areq, [Buffer.from(up.text)]);
      else {
        let json: JsonObject;
        try {
          json = JSON.parse(up.text) as JsonObject;
        } catch {
          throw RelayError.badUpstreamJson();
        }
        a.adapter.convertResponse?.(json, a.areq);
      }
      return { ok: true, status: up.status, message: '', ms: Date.now() - started };
    } catch (err) {
      const e = toRelayError(err);
      return fail(e.status, e.messageIn('en'));
    }
  }
}
