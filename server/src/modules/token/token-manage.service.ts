import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { fail } from '../../common/app-error';
import { CryptoService } from '../../common/crypto.service';
import type { AuthUser } from '../../common/http/request-context';
import { escapeLike, LIKE_ESCAPE, Page, pageOf, parsePage } from '../../common/pagination';
import { checkLimits } from '../../common/scoped-limit-rules';
import { nowSeconds } from '../../common/time';
import { Token, TokenStatus } from '../../database/entities';
import { budgetText, checkBudget } from '../../common/budget-rules';
import { isRowId } from '../../common/ids';
import { UserGroupsService } from '../user';
import {
  checkAllowIps,
  checkBool,
  checkCount,
  checkExpiry,
  checkModelLimits,
  checkName,
  checkRemainQuota,
  checkTokenIds,
  MAX_TOKENS_PER_USER,
  NAME_SUFFIX_LENGTH,
  SUFFIX_ALPHABET,
} from './token-rules';
import { TOKEN_KEY_LENGTH, TokenService } from './token.service';
import { toTokenView, TokenView } from './token.view';
import type { CreateTokenDto, UpdateTokenDto } from './token.dto';
import type { UnknownObject as Raw } from '../../common/json';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const present = (v: unknown) => v !== undefined && v !== null;

/** A JSON body that is not an object (an array, a string, a number) carries no fields: refuse it. */
function assertObject(raw: unknown): void {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw fail('invalid_params');
}

/**
 * The signed-in user's own API tokens. Every query is scoped to the caller (another user's token is
 * "not found", never "forbidden"), deleted tokens are invisible, and every write tells the relay's
 * token cache to drop the token.
 */
@Injectable()
export class TokenManageService {
  constructor(
    @InjectRepository(Token) private readonly repo: Repository<Token>,
    private readonly tokens: TokenService,
    private readonly groups: UserGroupsService,
  ) {}

  async list(me: AuthUser, query: Raw): Promise<Page<TokenView>> {
    const q = parsePage(query);
    const [rows, total] = await this.repo.findAndCount({
      where: { user_id: me.id, deleted_at: IsNull() },
      order: { id: 'DESC' },
      skip: q.offset,
      take: q.pageSize,
    });
    return pageOf(rows.map(toTokenView), total, q);
  }

  /**
   * `keyword` matches the name literally; `token` is a full key (matched by its hash), a masked key
   * as listed (matched by its hint) or any part of a key (matched against the caller's own keys).
   */
  async search(me: AuthUser, query: Raw): Promise<Page<TokenView>> {
    const q = parsePage(query);
    const keyword = str(query.keyword);
    const token = str(query.token);
    const qb = this.repo
      .createQueryBuilder('t')
      .where('t.user_id = :uid', { uid: me.id })
      .andWhere('t.deleted_at IS NULL')
      .orderBy('t.id', 'DESC');
    if (keyword) qb.andWhere(`t.name LIKE :kw ${LIKE_ESCAPE}`, { kw: `%${escapeLike(keyword)}%` });
    if (token) {
      const bare = token.startsWith('sk-') ? token.slice(3) : token;
      const masked = /^([A-Za-z0-9]{4})\*+([A-Za-z0-9]{4})$/.exec(bare);
      if (bare.length === TOKEN_KEY_LENGTH && /^[A-Za-z0-9]+$/.test(bare)) {
        qb.andWhere('t.key_hash = :hash', { hash: this.tokens.hashKey(bare) });
      } else if (masked) {
        qb.andWhere('t.key_hint = :hint', { hint: `${masked[1]}${masked[2]}` });
      } else {
        // Part of a key: compare with the caller's own keys (at most MAX_TOKENS_PER_USER of them).
        const all = (await qb.getMany()).filter((t) => this.clearKey(t).includes(bare));
        return pageOf(all.slice(q.offset, q.offset + q.pageSize).map(toTokenView), all.length, q);
      }
    }
    const [rows, total] = await qb.skip(q.offset).take(q.pageSize).getManyAndCount();
    return pageOf(rows.map(toTokenView), total, q);
  }

  async get(me: AuthUser, id: number): Promise<TokenView> {
    return toTokenView(await this.own(me, id));
  }

  /**
   * Creates `count` tokens: the first under the given name, each extra one under the name plus a random
   * 6-character suffix (the suffix alone when there is no name); returns them, keys masked.
   */
  async create(me: AuthUser, raw: CreateTokenDto): Promise<TokenView[]> {
    assertObject(raw);
    const now = nowSeconds();
    const name = checkName(raw.name);
    const fields = {
      remain_quota: present(raw.remain_quota) ? checkRemainQuota(raw.remain_quota) : 0,
      expired_time: present(raw.expired_time) ? checkExpiry(raw.expired_time, now) : -1,
      unlimited_quota: present(raw.unlimited_quota)
        ? checkBool(raw.unlimited_quota, 'unlimited_quota')
        : false,
      model_limits_enabled: present(raw.model_limits_enabled)
        ? checkBool(raw.model_limits_enabled, 'model_limits_enabled')
        : false,
      model_limits: checkModelLimits(raw.model_limits),
      allow_ips: checkAllowIps(raw.allow_ips),
      group: this.checkGroup(me, raw.group),
      rpm_limit: 0,
      tpm_limit: 0,
      concurrency_limit: 0,
      ...checkLimits({ ...raw }),
      budget: budgetText(checkBudget(raw.budget) ?? null),
    };
    const count = checkCount(raw.count);
    const held = await this.repo.countBy({ user_id: me.id, deleted_at: IsNull() });
    if (held + count > MAX_TOKENS_PER_USER) throw fail('token_limit_reached', { max: MAX_TOKENS_PER_USER });
    const out: TokenView[] = [];
    for (let i = 0; i < count; i++) {
      const suffix = CryptoService.randomString(NAME_SUFFIX_LENGTH, SUFFIX_ALPHABET);
      const tokenName = i > 0 ? (name ? `${name}-${suffix}` : suffix) : name;
      const { token } = await this.tokens.create(me.id, { ...fields, name: tokenName });
      this.tokens.invalidate(token.id, token.key_hash);
      out.push(toTokenView(token));
    }
    return out;
  }

  /**
   * Edits an own token. With `statusOnly` only `status` (1 or 2) changes. An expired or exhausted
   * token cannot be enabled until its expiry or quota is fixed.
   */
  async update(me: AuthUser, raw: UpdateTokenDto, statusOnly: boolean): Promise<TokenView> {
    assertObject(raw);
    const token = await this.own(me, raw.id);
    const now = nowSeconds();
    // Only the fields sent are written: the relay changes remain_quota and used_quota concurrently.
    const changes: Partial<Token> = {};
    if (statusOnly) {
      changes.status = this.checkStatus(raw.status);
    } else {
      if (raw.name !== undefined) changes.name = checkName(raw.name);
      if (present(raw.remain_quota)) changes.remain_quota = checkRemainQuota(raw.remain_quota);
      // The edit form sends the stored expiry back unchanged even when it has passed.
      if (present(raw.expired_time) && raw.expired_time !== Number(token.expired_time))
        changes.expired_time = checkExpiry(raw.expired_time, now);
      if (present(raw.unlimited_quota))
        changes.unlimited_quota = checkBool(raw.unlimited_quota, 'unlimited_quota');
      if (present(raw.model_limits_enabled))
        changes.model_limits_enabled = checkBool(raw.model_limits_enabled, 'model_limits_enabled');
      if (raw.model_limits !== undefined) changes.model_limits = checkModelLimits(raw.model_limits);
      if (raw.allow_ips !== undefined) changes.allow_ips = checkAllowIps(raw.allow_ips);
      if (raw.group !== undefined) changes.group = this.checkGroup(me, raw.group, token.group);
      Object.assign(changes, checkLimits({ ...raw }));
      if (raw.budget !== undefined) changes.budget = budgetText(checkBudget(raw.budget) ?? null);
      if (present(raw.status)) changes.status = this.checkStatus(raw.status);
    }
    const next = { ...token, ...changes };
    if (next.status === TokenStatus.Enabled && token.status !== TokenStatus.Enabled) {
      const expiry = Number(next.expired_time);
      if (expiry !== -1 && expiry <= now) throw fail('token_expired_cannot_enable');
      if (!next.unlimited_quota && Number(next.remain_quota) <= 0)
        throw fail('token_exhausted_cannot_enable');
    }
    if (Object.keys(changes).length) await this.repo.update({ id: token.id, user_id: me.id }, changes);
    this.tokens.invalidate(token.id, token.key_hash);
    return toTokenView(await this.own(me, token.id));
  }

  async remove(me: AuthUser, id: number): Promise<void> {
    const token = await this.own(me, id);
    await this.repo.update(
      { id: token.id, user_id: me.id, deleted_at: IsNull() },
      { deleted_at: nowSeconds() },
    );
    this.tokens.invalidate(token.id, token.key_hash);
  }

  /** Deletes the caller's tokens among `ids` (others' ids are ignored); returns how many. */
  async removeMany(me: AuthUser, idList: number[] | undefined): Promise<number> {
    const ids = checkTokenIds(idList);
    if (!ids.some(isRowId)) return 0;
    const rows = await this.repo.find({
      where: { id: In([...new Set(ids.filter(isRowId))]), user_id: me.id, deleted_at: IsNull() },
      select: { id: true, key_hash: true },
    });
    if (!rows.length) return 0;
    await this.repo.update({ id: In(rows.map((r) => r.id)), user_id: me.id }, { deleted_at: nowSeconds() });
    for (const r of rows) this.tokens.invalidate(r.id, r.key_hash);
    return rows.length;
  }

  /** The full key, for its owner only. */
  async reveal(me: AuthUser, id: number): Promise<{ key: string }> {
    return { key: this.tokens.revealKey(await this.own(me, id)) };
  }

  // ---------------------------------------------------------------- helpers

  private async own(me: AuthUser, id: number): Promise<Token> {
    const token = isRowId(id)
      ? await this.repo.findOneBy({ id, user_id: me.id, deleted_at: IsNull() })
      : null;
    if (!token) throw fail('token_not_found');
    return token;
  }

  private clearKey(t: Token): string {
    try {
      return this.tokens.revealKey(t).slice(3);
    } catch {
      return '';
    }
  }

  private checkStatus(v: unknown): number {
    if (v !== TokenStatus.Enabled && v !== TokenStatus.Disabled) throw fail('token_status_invalid');
    return v;
  }

  /** '' (the user's own group) or one of the groups the user may use; an unchanged group is kept. */
  private checkGroup(me: AuthUser, v: unknown, current?: string): string {
    if (v === undefined || v === null || v === '') return '';
    if (typeof v !== 'string') throw fail('token_group_invalid', { group: JSON.stringify(v).slice(0, 40) });
    const group = v.trim();
    if (group === current) return group;
    if (!Object.hasOwn(this.groups.usableGroups(me.group), group))
      throw fail('token_group_invalid', { group: group.slice(0, 64) });
    return group;
  }
}
