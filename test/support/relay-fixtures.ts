import { CacheBus } from '../../server/src/common/cache-bus';
import type { ChannelInput } from '../../server/src/modules/channel/channel.service';
import { ChannelService } from '../../server/src/modules/channel/channel.service';
import { QuotaLedgerService } from '../../server/src/modules/billing/quota-ledger.service';
import { RelayCacheService } from '../../server/src/modules/relay/relay-cache.service';
import { TokenService } from '../../server/src/modules/token/token.service';
import type { TestApp } from './test-app';

/**
 * Relay test set-up through the product's own services (the management API for these has its own
 * suites): channels pointed at a mock upstream, tokens, balances, and the settled ledger.
 */
export async function makeChannel(
  t: TestApp,
  input: Partial<ChannelInput> & { base_url: string },
): Promise<number> {
  const ch = await t.app.get(ChannelService).create({
    type: 1,
    name: `ch-${Math.random().toString(36).slice(2, 8)}`,
    key: 'sk-upstream-key',
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default',
    ...input,
  });
  await t.app.get(RelayCacheService).reloadChannels();
  return ch.id;
}

export async function updateChannel(t: TestApp, id: number, input: Partial<ChannelInput>): Promise<void> {
  await t.app.get(ChannelService).update(id, input);
  await t.app.get(RelayCacheService).reloadChannels();
}

export async function makeToken(
  t: TestApp,
  userId: number,
  opts: Partial<{
    name: string;
    remain_quota: number;
    unlimited_quota: boolean;
    expired_time: number;
    model_limits: string;
    allow_ips: string;
    group: string;
  }> = {},
): Promise<{ id: number; key: string }> {
  const { token, key } = await t.app.get(TokenService).create(userId, {
    name: opts.name ?? 'test token',
    remain_quota: opts.remain_quota ?? 0,
    unlimited_quota: opts.unlimited_quota ?? opts.remain_quota === undefined,
    expired_time: opts.expired_time ?? -1,
    model_limits_enabled: !!opts.model_limits,
    model_limits: opts.model_limits ?? '',
    allow_ips: opts.allow_ips ?? '',
    group: opts.group ?? '',
  });
  return { id: token.id, key };
}

/** Sets a user's balance directly (test set-up of a known starting point). */
export async function setQuota(t: TestApp, userId: number, quota: number): Promise<void> {
  await t.ds.createQueryBuilder().update('users').set({ quota }).where('id = :id', { id: userId }).execute();
  t.app.get(CacheBus).publish('users', [userId]);
}

export async function quotaOf(t: TestApp, userId: number): Promise<number> {
  const rows: Array<{ quota: string | number }> = await t.ds.query(
    `SELECT quota FROM users WHERE id = ${Math.floor(userId)}`,
  );
  return Number(rows[0].quota);
}

/** Commits every queued settlement (the ledger flushes every 200 ms on its own). */
export async function settle(t: TestApp): Promise<void> {
  await t.app.get(QuotaLedgerService).flush();
}

export interface LogRow {
  id: number;
  type: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  model_name: string;
  channel_id: number;
  token_name: string;
  is_stream: boolean;
  content: string;
  other: Record<string, unknown>;
  request_id: string;
  group: string;
}

export async function logsOf(t: TestApp, userId: number): Promise<LogRow[]> {
  const rows: Array<Record<string, unknown>> = await t.ds.query(
    `SELECT * FROM logs WHERE user_id = ${Math.floor(userId)} AND type IN (2, 5) ORDER BY id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    type: Number(r.type),
    quota: Number(r.quota),
    prompt_tokens: Number(r.prompt_tokens),
    completion_tokens: Number(r.completion_tokens),
    model_name: String(r.model_name),
    channel_id: Number(r.channel_id),
    token_name: String(r.token_name),
    is_stream: r.is_stream === true || Number(r.is_stream) === 1,
    content: typeof r.content === 'string' ? r.content : '',
    other: JSON.parse(typeof r.other === 'string' && r.other ? r.other : '{}') as Record<string, unknown>,
    request_id: String(r.request_id),
    group: String(r.group),
  }));
}
