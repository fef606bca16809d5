import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, In, SelectQueryBuilder } from 'typeorm';
import { fail } from '../../common/app-error';
import { CacheBus } from '../../common/cache-bus';
import { escapeLike, LIKE_ESCAPE, Page, pageOf, PageQuery, parsePage } from '../../common/pagination';
import { isRowId } from '../../common/ids';
import { nowSeconds } from '../../common/time';
import { Ability, Channel, ChannelStatus } from '../../database/entities';
import {
  CHANNEL_LIMITS,
  checkChannel,
  checkGroups,
  checkJsonObject,
  checkModels,
  checkPriority,
  checkTag,
  checkWeight,
} from './channel-rules';
import { CHANNEL_TYPES } from './channel-types';
import { ChannelInput, ChannelService } from './channel.service';
import type { CreateChannelDto, EditTagDto, UpdateChannelDto } from './channel.dto';
import { ChannelTagRow, ChannelView, toChannelView, toTagRow } from './channel.view';

/** Most keys (channels) one batch create may carry, and most ids one batch call may name. */
export const MAX_BATCH_CHANNELS = 1000;
export const DEFAULT_COPY_SUFFIX = '_复制';
/** Spark (type 18) needs an API version in `other`. */
const SPARK_TYPE = 18;
const SPARK_DEFAULT_VERSION = 'v2.1';

export type ChannelRow = ChannelView | ChannelTagRow;
export interface ChannelPage extends Page<ChannelRow> {
  type_counts: Record<string, number>;
}

export class BuiltinModel {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['model'] }) object!: 'model';
  @ApiProperty() owned_by!: string;
}

interface Filter {
  keyword: string;
  group: string;
  model: string;
  status: string;
  type: number | null;
  idSort: boolean;
  tagMode: boolean;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const bool = (v: unknown) => v === true || v === 'true' || v === '1';

function parseFilter(query: Record<string, unknown>): Filter {
  const type = str(query.type);
  return {
    keyword: str(query.keyword),
    group: str(query.group),
    model: str(query.model),
    status: str(query.status),
    type: /^\d{1,6}$/.test(type) ? Number(type) : null,
    idSort: bool(query.id_sort),
    tagMode: bool(query.tag_mode),
  };
}

/** The ids of a batch call (their type is checked by ChannelIdsDto): at least one, at most MAX_BATCH_CHANNELS. */
function checkIds(
  v: number[] | undefined,
  emptyKey: 'channel_select_first' | 'channel_ids_required',
): number[] {
  if (!v?.length) throw fail(emptyKey);
  if (v.length > MAX_BATCH_CHANNELS) throw fail('channel_batch_too_many', { max: MAX_BATCH_CHANNELS });
  return [...new Set(v.filter(isRowId))];
}

/** A JSON body that is not an object (an array, a string, a number) carries no fields: refuse it. */
function assertObject(raw: unknown): void {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw fail('invalid_params');
}

function requireTag(v: string | null | undefined): string {
  const tag = checkTag(v);
  if (!tag) throw fail('channel_tag_required');
  return tag;
}

/**
 * The channel screens of the admin console: lists (plain and by tag), search, create (single or one
 * channel per key), edit, delete, tag operations and copies. Writes go through ChannelService or
 * rebuild abilities in the same transaction, and every write publishes on the cache bus.
 */
@Injectable()
export class ChannelManageService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly channels: ChannelService,
    private readonly bus: CacheBus,
  ) {}

  private get repo() {
    return this.ds.getRepository(Channel);
  }

  // ---------------------------------------------------------------- reading

  list(query: Record<string, unknown>): Promise<ChannelPage> {
    const f = parseFilter(query);
    return this.page({ ...f, keyword: '', model: '' }, parsePage(query));
  }

  search(query: Record<string, unknown>): Promise<ChannelPage> {
    return this.page(parseFilter(query), parsePage(query));
  }

  async get(id: number): Promise<ChannelView> {
    return toChannelView(await this.mustFind(id));
  }

  /** The channel's key in clear (root, after a step-up check; recorded in the audit trail). */
  async revealKey(id: number): Promise<{ key: string }> {
    return { key: this.channels.decryptKey(await this.mustFind(id)) };
  }

  /** Every channel type's built-in models (the channel form's choices), each model once. */
  builtinModels(): BuiltinModel[] {
    const seen = new Map<string, string>();
    for (const info of Object.values(CHANNEL_TYPES))
      for (const model of info.models) if (!seen.has(model)) seen.set(model, info.name);
    return [...seen].map(([id, owner]) => ({ id, object: 'model', owned_by: owner }));
  }

  /** Model names reachable through enabled channels (their abilities), sorted. */
  async enabledModels(): Promise<string[]> {
    const rows = await this.ds
      .getRepository(Ability)
      .createQueryBuilder('a')
      .select('DISTINCT a.model', 'model')
      .where('a.enabled = :enabled', { enabled: true })
      .getRawMany<{ model: string }>();
    return rows.map((r) => r.model).sort();
  }

  // ---------------------------------------------------------------- writing

  async create(body: CreateChannelDto): Promise<{ id: number; ids: number[] }> {
    assertObject(body);
    const { channel, mode, batch_add_set_key_prefix_2_name: keyPrefixInName, ...flat } = body;
    const input = checkChannel({ ...(channel ?? flat) }, true) as ChannelInput;
    if (input.type === SPARK_TYPE && !input.other) input.other = SPARK_DEFAULT_VERSION;
    let inputs: ChannelInput[] = [input];
    if (mode === 'batch') {
      const keys = [...new Set((input.key ?? '').split('\n').map((k) => k.trim()))].filter(Boolean);
      if (keys.length > MAX_BATCH_CHANNELS) throw fail('channel_batch_too_many', { max: MAX_BATCH_CHANNELS });
      const named = keyPrefixInName === true && keys.length > 1;
      // new-api's naming option: "<name> <first 8 characters of the key>", within the name's bound.
      const nameOf = (key: string) =>
        named ? [...`${input.name} ${key.slice(0, 8)}`].slice(0, CHANNEL_LIMITS.name).join('') : input.name;
      inputs = keys.map((key) => ({ ...input, key, name: nameOf(key) }));
    }
    const saved = await this.channels.createMany(inputs);
    return { id: saved[0].id, ids: saved.map((c) => c.id) };
  }

  async update(body: UpdateChannelDto): Promise<ChannelView> {
    assertObject(body);
    const id = body.id;
    const changes = checkChannel({ ...body }, false);
    const current = await this.mustFind(id);
    const type = changes.type ?? current.type;
    const other = changes.other !== undefined ? changes.other : current.other;
    if (type === SPARK_TYPE && !other) changes.other = SPARK_DEFAULT_VERSION;
    const saved = await this.channels.update(id, changes);
    if (!saved) throw fail('channel_not_found');
    return toChannelView(saved);
  }

  async remove(id: number): Promise<void> {
    const n = await this.deleteIds([id]);
    if (!n) throw fail('channel_not_found');
  }

  /** Deletes every disabled channel (manually or automatically); returns how many. */
  async removeDisabled(): Promise<number> {
    const rows = await this.repo
      .createQueryBuilder('c')
      .select('c.id', 'id')
      .where('c.status <> :enabled', { enabled: ChannelStatus.Enabled })
      .getRawMany<{ id: number | string }>();
    return this.deleteIds(rows.map((r) => Number(r.id)));
  }

  async removeMany(ids: number[] | undefined): Promise<number> {
    return this.deleteIds(checkIds(ids, 'channel_select_first'));
  }

  /**
   * A manual status change (new-api's `POST /api/channel/{id}/status`): true when the status changed,
   * false when the channel already had it.
   */
  async setStatus(id: number, status: number | undefined): Promise<boolean> {
    if (status === undefined || status === null) throw fail('channel_status_required');
    await this.mustFind(id);
    return this.channels.setStatus(id, status, 'manual');
  }

  /** The batch form: how many of the channels changed (unknown ids and unchanged ones do not count). */
  async setStatuses(ids: number[] | undefined, status: number | undefined): Promise<number> {
    if (status === undefined || status === null) throw fail('channel_status_required');
    let changed = 0;
    for (const id of checkIds(ids, 'channel_ids_required'))
      if (await this.channels.setStatus(id, status, 'manual')) changed += 1;
    return changed;
  }

  /** Rebuilds the abilities of every channel (and drops those of channels that no longer exist). */
  async fixAbilities(): Promise<{ success: number; fails: number }> {
    await this.ds
      .createQueryBuilder()
      .delete()
      .from(Ability)
      .where('channel_id NOT IN (SELECT id FROM channels)')
      .execute();
    let success = 0;
    let fails = 0;
    for (const ch of await this.repo.find({ order: { id: 'ASC' } })) {
      try {
        await this.ds.transaction((m) => this.channels.syncAbilities(m, ch));
        success += 1;
      } catch {
        fails += 1;
      }
    }
    this.bus.publish('channels', []);
    return { success, fails };
  }

  /** Enables or disables every channel of a tag; returns how many channels it has. */
  async setTagStatus(tagName: string | undefined, status: number): Promise<number> {
    const tag = requireTag(tagName);
    const ids = await this.ds.transaction(async (m) => {
      const rows = await m.getRepository(Channel).find({ where: { tag }, select: { id: true } });
      const found = rows.map((r) => r.id);
      if (!found.length) throw fail('channel_not_found');
      await m.getRepository(Channel).update({ tag }, { status });
      await m
        .getRepository(Ability)
        .update({ channel_id: In(found) }, { enabled: status === ChannelStatus.Enabled });
      return found;
    });
    this.bus.publish('channels', ids);
    return ids.length;
  }

  /**
   * Edits every channel of a tag. Absent or empty fields leave things unchanged; `new_tag` renames
   * the tag, or dissolves it when it is an empty string. Returns how many channels changed.
   */
  async editTag(body: EditTagDto): Promise<number> {
    assertObject(body);
    const tag = requireTag(body.tag);
    const changes: Partial<
      Pick<Channel, 'tag' | 'model_mapping' | 'models' | 'group' | 'priority' | 'weight'>
    > = {};
    if (typeof body.new_tag === 'string') changes.tag = checkTag(body.new_tag, 'new_tag') ?? null;
    const mapping = checkJsonObject({ model_mapping: body.model_mapping }, 'model_mapping');
    if (mapping) changes.model_mapping = mapping;
    const models = checkModels({ models: body.models });
    if (models) changes.models = models;
    const groups =
      body.groups === '' || (Array.isArray(body.groups) && !body.groups.length)
        ? undefined
        : checkGroups({ groups: body.groups });
    if (groups) changes.group = groups;
    const priority = body.priority === '' ? undefined : checkPriority(body.priority);
    if (priority !== undefined) changes.priority = priority;
    const weight = body.weight === '' ? undefined : checkWeight(body.weight);
    if (weight !== undefined) changes.weight = weight;
    if (!Object.keys(changes).length) throw fail('channel_tag_no_changes');

    const ids = await this.ds.transaction(async (m) => {
      const list = await m.getRepository(Channel).find({ where: { tag }, order: { id: 'ASC' } });
      if (!list.length) throw fail('channel_not_found');
      for (const ch of list) {
        Object.assign(ch, changes);
        const saved = await m.getRepository(Channel).save(ch);
        await this.channels.syncAbilities(m, saved);
      }
      return list.map((c) => c.id);
    });
    this.bus.publish('channels', ids);
    return ids.length;
  }

  /** Sets one tag on the chosen channels; returns how many exist. */
  async batchTag(idList: number[] | undefined, tagName: string | undefined): Promise<number> {
    const ids = checkIds(idList, 'channel_ids_required');
    const tag = requireTag(tagName);
    if (!ids.length) return 0;
    const found = await this.ds.transaction(async (m) => {
      const rows = await m.getRepository(Channel).find({ where: { id: In(ids) }, select: { id: true } });
      const existing = rows.map((r) => r.id);
      if (!existing.length) return existing;
      await m.getRepository(Channel).update({ id: In(existing) }, { tag });
      await m.getRepository(Ability).update({ channel_id: In(existing) }, { tag });
      return existing;
    });
    if (found.length) this.bus.publish('channels', found);
    return found.length;
  }

  /** Copies a channel (key included) under `name + suffix`; balance and usage restart at 0 unless told. */
  async copy(id: number, suffixRaw: unknown, resetRaw: unknown): Promise<{ id: number }> {
    const src = await this.mustFind(id);
    const suffix = typeof suffixRaw === 'string' ? suffixRaw : DEFAULT_COPY_SUFFIX;
    const resetBalance = !(resetRaw === 'false' || resetRaw === '0' || resetRaw === false);
    const name = `${src.name}${suffix}`.trim();
    // eslint-disable-next-line no-control-regex
    if (!name || /[\u0000-\u001f\u007f]/.test(name))
      throw fail('channel_copy_failed', { reason: 'invalid name' });
    if ([...name].length > CHANNEL_LIMITS.name)
      throw fail('channel_copy_failed', { reason: `name longer than ${CHANNEL_LIMITS.name} characters` });
    const saved = await this.ds.transaction(async (m) => {
      const repo = m.getRepository(Channel);
      const { id: _old, ...fields } = src;
      const row = repo.create({
        ...fields,
        name,
        created_time: nowSeconds(),
        ...(resetBalance ? { balance: 0, used_quota: 0, balance_updated_time: 0 } : {}),
      });
      const ch = await repo.save(row);
      await this.channels.syncAbilities(m, ch);
      return ch;
    });
    this.bus.publish('channels', [saved.id]);
    return { id: saved.id };
  }

  // ---------------------------------------------------------------- helpers

  private async mustFind(id: number): Promise<Channel> {
    const ch = isRowId(id) ? await this.repo.findOneBy({ id }) : null;
    if (!ch) throw fail('channel_not_found');
    return ch;
  }

  /** Deletes channels and their abilities in one transaction; returns how many existed. */
  private async deleteIds(ids: number[]): Promise<number> {
    const valid = ids.filter(isRowId);
    if (!valid.length) return 0;
    const deleted = await this.ds.transaction(async (m) => {
      const existing: number[] = [];
      for (let i = 0; i < valid.length; i += 500) {
        const chunk = valid.slice(i, i + 500);
        const rows = await m.getRepository(Channel).find({ where: { id: In(chunk) }, select: { id: true } });
        if (!rows.length) continue;
        const found = rows.map((r) => r.id);
        await m.getRepository(Ability).delete({ channel_id: In(found) });
        await m.getRepository(Channel).delete({ id: In(found) });
        existing.push(...found);
      }
      return existing;
    });
    if (deleted.length) this.bus.publish('channels', deleted);
    return deleted.length;
  }

  private filtered(f: Filter, withType: boolean): SelectQueryBuilder<Channel> {
    const qb = this.repo.createQueryBuilder('c');
    if (f.keyword) {
      const kw = `%${escapeLike(f.keyword)}%`;
      qb.andWhere(
        new Brackets((w) => {
          if (/^\d{1,9}$/.test(f.keyword)) w.orWhere('c.id = :kwId', { kwId: Number(f.keyword) });
          w.orWhere(`c.name LIKE :kw ${LIKE_ESCAPE}`, { kw })
            .orWhere(`c.tag LIKE :kw ${LIKE_ESCAPE}`, { kw })
            .orWhere(`c.base_url LIKE :kw ${LIKE_ESCAPE}`, { kw });
        }),
      );
    }
    if (f.group) {
      // `group` is a normalised comma list: match the whole name at any position.
      const g = escapeLike(f.group);
      qb.andWhere(
        new Brackets((w) => {
          w.where('c.group = :g', { g: f.group })
            .orWhere(`c.group LIKE :gFirst ${LIKE_ESCAPE}`, { gFirst: `${g},%` })
            .orWhere(`c.group LIKE :gLast ${LIKE_ESCAPE}`, { gLast: `%,${g}` })
            .orWhere(`c.group LIKE :gMid ${LIKE_ESCAPE}`, { gMid: `%,${g},%` });
        }),
      );
    }
    if (f.model) qb.andWhere(`c.models LIKE :model ${LIKE_ESCAPE}`, { model: `%${escapeLike(f.model)}%` });
    if (f.status === 'enabled' || f.status === String(ChannelStatus.Enabled))
      qb.andWhere('c.status = :st', { st: ChannelStatus.Enabled });
    else if (f.status === 'disabled') qb.andWhere('c.status <> :st', { st: ChannelStatus.Enabled });
    else if (/^\d{1,3}$/.test(f.status)) qb.andWhere('c.status = :st', { st: Number(f.status) });
    if (withType && f.type !== null) qb.andWhere('c.type = :type', { type: f.type });
    return qb;
  }

  private ordered(qb: SelectQueryBuilder<Channel>, idSort: boolean): SelectQueryBuilder<Channel> {
    return idSort ? qb.orderBy('c.id', 'DESC') : qb.orderBy('c.priority', 'DESC').addOrderBy('c.id', 'DESC');
  }

  /** Channel counts per type under the other filters (the type tabs). */
  private async typeCounts(f: Filter): Promise<Record<string, number>> {
    const rows = await this.filtered(f, false)
      .select('c.type', 'type')
      .addSelect('COUNT(*)', 'count')
      .groupBy('c.type')
      .getRawMany<{ type: number | string; count: number | string }>();
    const out: Record<string, number> = {};
    for (const r of rows) out[String(r.type)] = Number(r.count);
    return out;
  }

  private async page(f: Filter, q: PageQuery): Promise<ChannelPage> {
    const typeCounts = await this.typeCounts(f);
    if (!f.tagMode) {
      const [rows, total] = await this.ordered(this.filtered(f, true), f.idSort)
        .skip(q.offset)
        .take(q.pageSize)
        .getManyAndCount();
      return { ...pageOf<ChannelRow>(rows.map(toChannelView), total, q), type_counts: typeCounts };
    }
    return { ...(await this.tagPage(f, q)), type_counts: typeCounts };
  }

  /** Tag mode pages over rows: one per tag (its channels as children) and one per untagged channel. */
  private async tagPage(f: Filter, q: PageQuery): Promise<Page<ChannelRow>> {
    const lite = await this.filtered(f, true)
      .select('c.id', 'id')
      .addSelect('c.tag', 'tag')
      .addSelect('c.priority', 'priority')
      .getRawMany<{ id: number | string; tag: string | null; priority: number | string }>();
    interface Row {
      tag: string | null;
      id: number;
      priority: number;
      ids: number[];
    }
    const rows: Row[] = [];
    const byTag = new Map<string, Row>();
    for (const r of lite) {
      const id = Number(r.id);
      const priority = Number(r.priority);
      if (!r.tag) {
        rows.push({ tag: null, id, priority, ids: [id] });
        continue;
      }
      const row = byTag.get(r.tag);
      if (!row) {
        const fresh = { tag: r.tag, id, priority, ids: [id] };
        byTag.set(r.tag, fresh);
        rows.push(fresh);
      } else {
        row.id = Math.max(row.id, id);
        row.priority = Math.max(row.priority, priority);
        row.ids.push(id);
      }
    }
    const cmp = (a: { id: number; priority: number }, b: { id: number; priority: number }) =>
      f.idSort ? b.id - a.id : b.priority - a.priority || b.id - a.id;
    rows.sort(cmp);
    const slice = rows.slice(q.offset, q.offset + q.pageSize);
    const ids = slice.flatMap((r) => r.ids);
    const byId = new Map<number, Channel>();
    for (let i = 0; i < ids.length; i += 500)
      for (const ch of await this.repo.findBy({ id: In(ids.slice(i, i + 500)) })) byId.set(ch.id, ch);
    const items: ChannelRow[] = [];
    for (const r of slice) {
      const chans = r.ids
        .map((id) => byId.get(id))
        .filter((c): c is Channel => !!c)
        .sort((a, b) =>
          cmp({ id: a.id, priority: Number(a.priority) }, { id: b.id, priority: Number(b.priority) }),
        )
        .map(toChannelView);
      if (!chans.length) continue;
      items.push(r.tag === null ? chans[0] : toTagRow(r.tag, chans));
    }
    return pageOf(items, rows.length, q);
  }
}
