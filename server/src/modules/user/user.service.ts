import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as bcrypt from 'bcrypt';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { fail, forbidden } from '../../common/app-error';
import { CryptoService } from '../../common/crypto.service';
import { isUniqueViolation, violatedColumn } from '../../common/db-errors';
import type { AuthUser } from '../../common/http/request-context';
import { escapeLike, LIKE_ESCAPE, Page, pageOf, PageQuery } from '../../common/pagination';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { LogType, Role, User, UserStatus } from '../../database/entities';
import { budgetText, checkBudget } from '../../common/budget-rules';
import { LogService } from '../log';
import { OptionService } from '../option';
import type { MessageKey } from '../../common/i18n/messages';
import { formatQuota } from './quota-format';
import { UserCacheService } from './user-cache.service';
import { checkDisplayName, checkPassword, checkQuota, checkUsername } from './user-rules';
import { toUserView, UserView } from './user.view';

export interface NewUser {
  username: string;
  passwordHash: string;
  role?: Role;
  quota?: number;
  displayName?: string;
  email?: string | null;
  group?: string;
  inviterId?: number;
  githubId?: string | null;
  oidcId?: string | null;
  wechatId?: string | null;
  telegramId?: string | null;
  linuxDoId?: string | null;
}

/** A new password ends every session of the user issued before it (see SessionService). */
function sessionsEndedBy(changes: Partial<User>): Partial<User> {
  return changes.password !== undefined ? { sessions_valid_after: Date.now() } : {};
}

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete' | 'add_quota';
const ACTIONS: ManageAction[] = ['promote', 'demote', 'disable', 'enable', 'delete', 'add_quota'];

/**
 * Users: creation, administration and the balance. Balance changes are atomic conditional deltas
 * (never a read-modify-write of a cached value) and commit together with the log that explains them.
 */
@Injectable()
export class UserService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly cache: UserCacheService,
    private readonly logs: LogService,
    private readonly options: OptionService,
    private readonly crypto: CryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get repo() {
    return this.ds.getRepository(User);
  }

  hashPassword(password: string): Promise<string> {
    return bcrypt.hash(password, this.config.bcryptCost);
  }

  async verifyPassword(password: string, hash: string): Promise<boolean> {
    if (!hash) return false;
    try {
      return await bcrypt.compare(password, hash);
    } catch {
      return false;
    }
  }

  findById(id: number): Promise<User | null> {
    return this.repo.findOneBy({ id });
  }

  async mustFind(id: number): Promise<User> {
    const user = Number.isSafeInteger(id) && id > 0 ? await this.findById(id) : null;
    if (!user) throw fail('user_not_found');
    return user;
  }

  /** Inserts a user inside the caller's transaction. A taken username or email becomes a clear error. */
  async insertUser(m: EntityManager, u: NewUser): Promise<User> {
    const row: Partial<User> = {
      username: u.username,
      password: u.passwordHash,
      display_name: u.displayName || u.username,
      role: u.role ?? Role.User,
      status: UserStatus.Enabled,
      email: u.email ?? null,
      group: u.group ?? 'default',
      quota: u.quota ?? 0,
      aff_code: CryptoService.randomString(8),
      inviter_id: u.inviterId ?? 0,
      github_id: u.githubId ?? null,
      oidc_id: u.oidcId ?? null,
      wechat_id: u.wechatId ?? null,
      telegram_id: u.telegramId ?? null,
      linux_do_id: u.linuxDoId ?? null,
      setting: '',
      created_at: nowSeconds(),
    };
    try {
      const result = await m.getRepository(User).insert(row);
      const id = Number(result.identifiers[0].id);
      return await m.getRepository(User).findOneByOrFail({ id });
    } catch (e) {
      if (isUniqueViolation(e)) throw fail(violatedColumn(e) === 'email' ? 'email_taken' : 'username_taken');
      throw e;
    }
  }

  async usernameTaken(username: string): Promise<boolean> {
    return (await this.repo.countBy({ username })) > 0;
  }

  async emailTaken(email: string, exceptId = 0): Promise<boolean> {
    const u = await this.repo.findOneBy({ email });
    return !!u && u.id !== exceptId;
  }

  // ---- admin: list, search, get, create, update, manage ----

  async list(q: PageQuery): Promise<Page<UserView>> {
    const [rows, total] = await this.repo.findAndCount({
      order: { id: 'DESC' },
      skip: q.offset,
      take: q.pageSize,
    });
    return pageOf(rows.map(toUserView), total, q);
  }

  async search(keyword: string, group: string, q: PageQuery): Promise<Page<UserView>> {
    const qb = this.repo.createQueryBuilder('u');
    const kw = keyword.trim();
    if (kw) {
      const like = `%${escapeLike(kw)}%`;
      qb.andWhere(
        new Brackets((w) => {
          if (/^\d{1,10}$/.test(kw)) w.orWhere('u.id = :id', { id: Number(kw) });
          w.orWhere(`u.username LIKE :like ${LIKE_ESCAPE}`, { like })
            .orWhere(`u.email LIKE :like ${LIKE_ESCAPE}`, { like })
            .orWhere(`u.display_name LIKE :like ${LIKE_ESCAPE}`, { like });
        }),
      );
    }
    if (group.trim()) qb.andWhere('u.group = :group', { group: group.trim() });
    const [rows, total] = await qb.orderBy('u.id', 'DESC').skip(q.offset).take(q.pageSize).getManyAndCount();
    return pageOf(rows.map(toUserView), total, q);
  }

  /** Admins may read users of a lower role; root reads anyone. */
  async getForAdmin(actor: AuthUser, id: number): Promise<UserView> {
    const user = await this.mustFind(id);
    this.assertOutranks(actor, user);
    return toUserView(user);
  }

  async adminCreate(
    actor: AuthUser,
    input: { username?: unknown; password?: unknown; display_name?: unknown },
  ): Promise<void> {
    if (!input.username || !input.password) throw fail('username_password_required');
    const username = checkUsername(input.username);
    const password = checkPassword(input.password);
    const displayName = checkDisplayName(input.display_name, username);
    if (await this.usernameTaken(username)) throw fail('username_taken');
    const passwordHash = await this.hashPassword(password);
    await this.ds.transaction(async (m) => {
      const created = await this.insertUser(m, { username, passwordHash, displayName });
      await this.logs.record(
        {
          userId: created.id,
          username,
          type: LogType.Manage,
          content: { key: 'log_text_user_created', params: { actor: actor.username } },
        },
        m,
      );
    });
  }

  async adminUpdate(
    actor: AuthUser,
    input: {
      id?: unknown;
      username?: unknown;
      display_name?: unknown;
      password?: unknown;
      group?: unknown;
      quota?: unknown;
      original_quota?: unknown;
      budget?: unknown;
    },
  ): Promise<UserView> {
    const user = await this.mustFind(Number(input.id));
    this.assertOutranks(actor, user);
    const changes: Partial<User> = {};
    if (input.username !== undefined && input.username !== user.username) {
      changes.username = checkUsername(input.username);
      if (await this.usernameTaken(changes.username)) throw fail('username_taken');
    }
    // Only what differs from the stored user counts as a change (and is named in the audit log).
    if (input.display_name !== undefined) {
      const displayName = checkDisplayName(input.display_name, user.username);
      if (displayName !== user.display_name) changes.display_name = displayName;
    }
    if (typeof input.password === 'string' && input.password !== '') {
      changes.password = await this.hashPassword(checkPassword(input.password));
    } else if (input.password !== undefined && input.password !== '' && input.password !== null) {
      throw fail('field_invalid', { field: 'password', reason: 'must be text' });
    }
    if (input.group !== undefined) {
      if (typeof input.group !== 'string' || !input.group.trim() || input.group.length > 64)
        throw fail('group_invalid');
      if (input.group.trim() !== user.group) changes.group = input.group.trim();
    }
    if (input.budget !== undefined) {
      const budget = budgetText(checkBudget(input.budget) ?? null);
      if (budget !== (user.budget ?? null)) changes.budget = budget;
    }
    let delta = 0;
    let expected: number | null = null;
    if (input.quota !== undefined && input.quota !== null && input.quota !== '') {
      const target = checkQuota(input.quota);
      if (
        input.original_quota !== undefined &&
        input.original_quota !== null &&
        input.original_quota !== ''
      ) {
        delta = target - checkQuota(input.original_quota);
      } else {
        delta = target - user.quota;
        expected = user.quota;
      }
    }
    await this.ds.transaction(async (m) => {
      if (Object.keys(changes).length) {
        try {
          await m.getRepository(User).update({ id: user.id }, { ...changes, ...sessionsEndedBy(changes) });
        } catch (e) {
          if (isUniqueViolation(e)) throw fail('username_taken');
          throw e;
        }
        // Which fields changed, never their values (a password hash has no place in a log).
        await this.logs.record(
          {
            userId: user.id,
            username: changes.username ?? user.username,
            type: LogType.Manage,
            content: {
              key: 'log_text_user_updated',
              params: { fields: Object.keys(changes).join(', '), actor: actor.username },
            },
          },
          m,
        );
      }
      if (delta !== 0)
        await this.adminQuotaChange(m, actor, user, delta, expected, 'log_text_user_quota_set');
    });
    this.cache.invalidate(user.id);
    return toUserView(await this.mustFind(user.id));
  }

  async manage(
    actor: AuthUser,
    input: { id?: unknown; action?: unknown; value?: unknown; mode?: unknown },
  ): Promise<{ status: number; role: number; quota?: number }> {
    const action = input.action as ManageAction;
    if (!ACTIONS.includes(action)) throw fail('invalid_action');
    const user = await this.mustFind(Number(input.id));
    if (user.deleted_at) throw fail('user_already_deleted');
    this.assertOutranks(actor, user);
    const touchesRoot = user.role >= Role.Root && ['demote', 'disable', 'delete'].includes(action);
    if (touchesRoot) throw fail('cannot_touch_root');
    const changes: Partial<User> = {};
    let logText: MessageKey = 'log_text_user_enabled';
    switch (action) {
      case 'promote':
        if (actor.role < Role.Root) throw fail('cannot_promote');
        if (user.role >= Role.Admin) throw fail('already_admin');
        changes.role = Role.Admin;
        logText = 'log_text_user_promoted';
        break;
      case 'demote':
        if (user.role <= Role.User) throw fail('already_user');
        changes.role = Role.User;
        logText = 'log_text_user_demoted';
        break;
      case 'disable':
        changes.status = UserStatus.Disabled;
        logText = 'log_text_user_disabled';
        break;
      case 'enable':
        changes.status = UserStatus.Enabled;
        logText = 'log_text_user_enabled';
        break;
      case 'delete':
        changes.deleted_at = nowSeconds();
        logText = 'log_text_user_deleted';
        break;
      case 'add_quota': {
        await this.ds.transaction((m) => this.adminQuotaMove(m, actor, user, input.mode, input.value));
        this.cache.invalidate(user.id);
        const after = await this.mustFind(user.id);
        return { status: after.status, role: after.role, quota: after.quota };
      }
    }
    await this.ds.transaction(async (m) => {
      await m.getRepository(User).update({ id: user.id }, changes);
      await this.logs.record(
        {
          userId: user.id,
          username: user.username,
          type: LogType.Manage,
          content: { key: logText, params: { actor: actor.username } },
        },
        m,
      );
    });
    this.cache.invalidate(user.id);
    const after = await this.mustFind(user.id);
    return { status: after.status, role: after.role };
  }

  /**
   * add_quota in both forms: without `mode` the value is a signed delta (our original form); with
   * `mode` (new-api's form) `add` and `subtract` take a positive amount and `override` the new balance.
   * A result below zero is refused and changes nothing. An override applies the difference from the
   * balance read here, only while the balance still is that (a concurrent change makes it refused).
   */
  private async adminQuotaMove(
    m: EntityManager,
    actor: AuthUser,
    user: User,
    mode: unknown,
    value: unknown,
  ): Promise<void> {
    if (mode === undefined || mode === null || mode === '') {
      const delta = checkQuota(value, { allowNegative: true });
      if (delta === 0) throw fail('quota_invalid');
      return this.adminQuotaChange(m, actor, user, delta, null, 'log_text_user_quota_added');
    }
    if (mode !== 'add' && mode !== 'subtract' && mode !== 'override')
      throw fail('quota_mode_invalid', { mode: typeof mode === 'string' ? mode.slice(0, 32) : typeof mode });
    const amount = checkQuota(value, { allowNegative: true });
    if (mode === 'override') {
      if (amount < 0) throw fail('quota_below_zero');
      const current = await m.getRepository(User).findOneByOrFail({ id: user.id });
      const delta = amount - current.quota;
      if (delta !== 0) await this.applyQuotaDelta(m, user.id, delta, current.quota);
      await this.logs.record(
        {
          userId: user.id,
          username: user.username,
          type: LogType.Manage,
          content: {
            key: 'log_text_user_quota_overridden',
            params: { from: this.fmt(current.quota), to: this.fmt(amount), actor: actor.username },
          },
          quota: delta,
        },
        m,
      );
      return;
    }
    if (amount <= 0) throw fail('quota_amount_positive');
    if (mode === 'add')
      return this.adminQuotaChange(m, actor, user, amount, null, 'log_text_user_quota_added');
    await this.applyQuotaDelta(m, user.id, -amount, null);
    await this.logs.record(
      {
        userId: user.id,
        username: user.username,
        type: LogType.Manage,
        content: {
          key: 'log_text_user_quota_subtracted',
          params: { amount: this.fmt(amount), actor: actor.username },
        },
        quota: -amount,
      },
      m,
    );
  }

  /** An admin's balance change and the type-3 log that explains it, in the caller's transaction. */
  private async adminQuotaChange(
    m: EntityManager,
    actor: AuthUser,
    user: User,
    delta: number,
    expected: number | null,
    verb: 'log_text_user_quota_set' | 'log_text_user_quota_added',
  ): Promise<void> {
    await this.applyQuotaDelta(m, user.id, delta, expected);
    await this.logs.record(
      {
        userId: user.id,
        username: user.username,
        type: LogType.Manage,
        content: { key: verb, params: { amount: this.fmt(delta), actor: actor.username } },
        quota: delta,
      },
      m,
    );
  }

  /** Nobody acts on a user of the same or a higher role, except root. */
  assertOutranks(actor: AuthUser, target: User): void {
    if (actor.role >= Role.Root) return;
    if (target.role >= actor.role) throw forbidden('cannot_act_on_peer');
  }

  /**
   * quota += delta, refused when the result would be negative or beyond 2^53; with `expected` set, only
   * when the balance still equals it (an admin's absolute edit that lost a race is refused, not applied).
   */
  async applyQuotaDelta(m: EntityManager, id: number, delta: number, expected: number | null): Promise<void> {
    const qb = m
      .createQueryBuilder()
      .update(User)
      .set({ quota: () => 'quota + :delta' })
      .where('id = :id')
      .andWhere('quota + :delta >= 0')
      .andWhere('quota + :delta <= :max')
      .setParameters({ id, delta, max: Number.MAX_SAFE_INTEGER });
    if (expected !== null) qb.andWhere('quota = :expected', { expected });
    const result = await qb.execute();
    if (!result.affected) {
      if (expected !== null) {
        const now = await m.getRepository(User).findOneBy({ id });
        if (now && now.quota !== expected) throw fail('quota_changed_concurrently');
      }
      throw fail(delta < 0 ? 'quota_below_zero' : 'quota_invalid');
    }
  }

  private fmt(q: number): string {
    return formatQuota(q, this.options.num('QuotaPerUnit'), this.options.bool('DisplayInCurrencyEnabled'));
  }

  // ---- self ----

  async selfView(id: number): Promise<UserView> {
    return toUserView(await this.mustFind(id));
  }

  /** Changes the own display name and/or password; true when the password changed. */
  async updateSelf(
    actor: AuthUser,
    input: { display_name?: unknown; password?: unknown; original_password?: unknown },
  ): Promise<boolean> {
    const user = await this.mustFind(actor.id);
    const changes: Partial<User> = {};
    if (input.display_name !== undefined)
      changes.display_name = checkDisplayName(input.display_name, user.username);
    if (input.password !== undefined && input.password !== '') {
      const password = checkPassword(input.password);
      if (user.password) {
        const original = typeof input.original_password === 'string' ? input.original_password : '';
        if (!(await this.verifyPassword(original, user.password))) throw fail('original_password_wrong');
      }
      changes.password = await this.hashPassword(password);
    }
    if (Object.keys(changes).length)
      await this.repo.update({ id: user.id }, { ...changes, ...sessionsEndedBy(changes) });
    this.cache.invalidate(user.id);
    return changes.password !== undefined;
  }

  async deleteSelf(actor: AuthUser, confirmUsername: unknown): Promise<void> {
    const user = await this.mustFind(actor.id);
    if (user.role >= Role.Root) throw fail('root_cannot_delete_self');
    if (confirmUsername !== user.username) throw fail('confirm_username_mismatch');
    await this.repo.update({ id: user.id }, { deleted_at: nowSeconds() });
    this.cache.invalidate(user.id);
  }

  async regenerateAccessToken(id: number): Promise<string> {
    const token = CryptoService.randomString(32);
    await this.repo.update({ id }, { access_token_hash: this.crypto.keyedHash(token) });
    this.cache.invalidate(id);
    return token;
  }

  async affCode(id: number): Promise<string> {
    return (await this.mustFind(id)).aff_code;
  }

  /** Moves invitation earnings into the balance; at least one unit (QuotaPerUnit). */
  async affTransfer(actor: AuthUser, raw: unknown): Promise<void> {
    const min = this.options.num('QuotaPerUnit');
    const amount = checkQuota(raw);
    if (amount < min) throw fail('aff_transfer_min', { min: this.fmt(min) });
    await this.ds.transaction(async (m) => {
      const result = await m
        .createQueryBuilder()
        .update(User)
        .set({ aff_quota: () => 'aff_quota - :amount', quota: () => 'quota + :amount' })
        .where('id = :id AND aff_quota >= :amount', { id: actor.id, amount })
        .execute();
      if (!result.affected) throw fail('aff_quota_insufficient');
      await this.logs.record(
        {
          userId: actor.id,
          username: actor.username,
          type: LogType.System,
          content: { key: 'log_text_aff_transfer', params: { amount: this.fmt(amount) } },
          quota: amount,
        },
        m,
      );
    });
    // The balance grew: the relay's balance view on every node follows at once.
    this.cache.invalidate(actor.id);
  }

  async saveSetting(id: number, setting: Record<string, unknown>): Promise<void> {
    await this.repo.update({ id }, { setting: JSON.stringify(setting) });
    this.cache.invalidate(id);
  }

  /** Rewards of an invited sign-up, in the sign-up's transaction. */
  async rewardInviter(
    m: EntityManager,
    inviterId: number,
    reward: number,
    inviteeName: string,
  ): Promise<void> {
    await m
      .createQueryBuilder()
      .update(User)
      .set({
        aff_count: () => 'aff_count + 1',
        aff_quota: () => 'aff_quota + :reward',
        aff_history_quota: () => 'aff_history_quota + :reward',
      })
      .where('id = :id', { id: inviterId, reward })
      .execute();
    if (reward > 0) {
      const inviter = await m.getRepository(User).findOneBy({ id: inviterId });
      await this.logs.record(
        {
          userId: inviterId,
          username: inviter?.username ?? '',
          type: LogType.System,
          content: { key: 'log_text_aff_reward', params: { invitee: inviteeName, amount: this.fmt(reward) } },
          quota: 0,
        },
        m,
      );
    }
  }
}
