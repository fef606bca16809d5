import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CacheBus } from '../../common/cache-bus';
import { CryptoService } from '../../common/crypto.service';
import { nowSeconds } from '../../common/time';
import { Ability, Channel, ChannelStatus } from '../../database/entities';
import { splitList } from '../../common/lists';

/** The writable fields of a channel, as the management API and the tests send them. */
export interface ChannelInput {
  type: number;
  name: string;
  key?: string;
  base_url?: string | null;
  other?: string | null;
  openai_organization?: string | null;
  models: string;
  group?: string;
  model_mapping?: string | null;
  status_code_mapping?: string | null;
  param_override?: string | null;
  setting?: string | null;
  priority?: number;
  weight?: number;
  tag?: string | null;
  test_model?: string | null;
  auto_ban?: number;
  status?: number;
  max_input_tokens?: number;
  rpm_limit?: number;
  tpm_limit?: number;
  concurrency_limit?: number;
}

/**
 * Channels and their abilities (the group × model index the relay selects from). Every write
 * rebuilds the channel's abilities in the same transaction and publishes on the cache bus, so the
 * relay's in-memory view follows at once on every node.
 */
@Injectable()
export class ChannelService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly crypto: CryptoService,
    private readonly bus: CacheBus,
  ) {}

  async create(input: ChannelInput): Promise<Channel> {
    return (await this.createMany([input]))[0];
  }

  /** Creates several channels in one transaction (batch mode: one per key), one bus event. */
  async createMany(inputs: ChannelInput[]): Promise<Channel[]> {
    const saved = await this.ds.transaction(async (m) => {
      const out: Channel[] = [];
      for (const input of inputs) out.push(await this.insertChannel(m, input));
      return out;
    });
    if (saved.length)
      this.bus.publish(
        'channels',
        saved.map((c) => c.id),
      );
    return saved;
  }

  private async insertChannel(m: EntityManager, input: ChannelInput): Promise<Channel> {
    const row = m.getRepository(Channel).create({
      ...this.fields(input),
      key: this.crypto.encrypt(input.key ?? ''),
      status: input.status ?? ChannelStatus.Enabled,
      created_time: nowSeconds(),
      test_time: 0,
      response_time: 0,
      balance: 0,
      balance_updated_time: 0,
      used_quota: 0,
      other_info: null,
    });
    const ch = await m.getRepository(Channel).save(row);
    await this.syncAbilities(m, ch);
    return ch;
  }

  /** Fields absent from `input` keep their values; an empty key keeps the old key. */
  async update(id: number, input: Partial<ChannelInput>): Promise<Channel | null> {
    const saved = await this.ds.transaction(async (m) => {
      const repo = m.getRepository(Channel);
      const ch = await repo.findOneBy({ id });
      if (!ch) return null;
      const merged: ChannelInput = { ...this.toInput(ch), ...stripUndefined(input) };
      Object.assign(ch, this.fields(merged));
      if (input.key) ch.key = this.crypto.encrypt(input.key);
      if (input.status !== undefined) ch.status = input.status;
      const out = await repo.save(ch);
      await this.syncAbilities(m, out);
      return out;
    });
    if (saved) this.bus.publish('channels', [id]);
    return saved;
  }

  /** Status change by the health checks: reason and time go into other_info. */
  async setStatus(id: number, status: number, reason: string): Promise<boolean> {
    const changed = await this.ds.transaction(async (m) => {
      const ch = await m.getRepository(Channel).findOneBy({ id });
      if (!ch || ch.status === status) return false;
      let info: Record<string, unknown>;
      try {
        info = JSON.parse(ch.other_info ?? '{}') as Record<string, unknown>;
      } catch {
        info = {};
      }
      info.status_reason = reason;
      info.status_time = nowSeconds();
      await m.getRepository(Channel).update({ id }, { status, other_info: JSON.stringify(info) });
      await m
        .getRepository(Ability)
        .update({ channel_id: id }, { enabled: status === ChannelStatus.Enabled });
      return true;
    });
    if (changed) this.bus.publish('channels', [id]);
    return changed;
  }

  decryptKey(ch: Channel): string {
    return this.crypto.decrypt(ch.key ?? '');
  }

  async syncAbilities(m: EntityManager, ch: Channel): Promise<void> {
    const repo = m.getRepository(Ability);
    await repo.delete({ channel_id: ch.id });
    const rows: Ability[] = [];
    for (const group of splitList(ch.group))
      for (const model of splitList(ch.models))
        rows.push(
          repo.create({
            group,
            model,
            channel_id: ch.id,
            enabled: ch.status === ChannelStatus.Enabled,
            priority: ch.priority,
            weight: ch.weight,
            tag: ch.tag,
          }),
        );
    for (let i = 0; i < rows.length; i += 200) await repo.insert(rows.slice(i, i + 200));
  }

  private fields(input: ChannelInput): Partial<Channel> {
    return {
      type: input.type,
      name: input.name,
      base_url: input.base_url ? input.base_url.replace(/\/+$/, '') : null,
      other: input.other ?? null,
      openai_organization: input.openai_organization ?? null,
      models: splitList(input.models).join(','),
      group: splitList(input.group ?? 'default').join(',') || 'default',
      model_mapping: input.model_mapping ?? null,
      status_code_mapping: input.status_code_mapping ?? null,
      param_override: input.param_override ?? null,
      setting: input.setting ?? null,
      priority: input.priority ?? 0,
      weight: input.weight ?? 0,
      tag: input.tag ?? null,
      test_model: input.test_model ?? null,
      auto_ban: input.auto_ban ?? 1,
      max_input_tokens: input.max_input_tokens ?? 0,
      rpm_limit: input.rpm_limit ?? 0,
      tpm_limit: input.tpm_limit ?? 0,
      concurrency_limit: input.concurrency_limit ?? 0,
    };
  }

  private toInput(ch: Channel): ChannelInput {
    return {
      type: ch.type,
      name: ch.name,
      base_url: ch.base_url,
      other: ch.other,
      openai_organization: ch.openai_organization,
      models: ch.models ?? '',
      group: ch.group,
      model_mapping: ch.model_mapping,
      status_code_mapping: ch.status_code_mapping,
      param_override: ch.param_override,
      setting: ch.setting,
      priority: ch.priority,
      weight: ch.weight,
      tag: ch.tag,
      test_model: ch.test_model,
      auto_ban: ch.auto_ban,
      max_input_tokens: ch.max_input_tokens,
      rpm_limit: ch.rpm_limit,
      tpm_limit: ch.tpm_limit,
      concurrency_limit: ch.concurrency_limit,
    };
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
