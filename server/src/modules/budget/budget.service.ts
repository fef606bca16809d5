import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isTimeZone, offsetAt, Period, PERIODS, periodBounds, serverTimeZone } from '../../common/calendar';
import { Lang, MessageKey, translate } from '../../common/i18n/messages';
import { SafeHttpClient } from '../../common/safe-http';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { BudgetHoldRow, BudgetUsage } from '../../database/entities';
import { deliverNotice, MailService } from '../mail';
import { OptionService } from '../option';
import { parseSetting } from '../user';
import type { UserSnapshot } from '../user';
import { Budget, parseGroupBudgets } from '../../common/budget-rules';

export type BudgetScope = 'token' | 'user' | 'group';

/** One counter a call was admitted against: scope, subject, period and the period's first second. */
export interface BudgetKey {
  scope: BudgetScope;
  subject: string;
  period: Period;
  start: number;
}

/**
 * What a call holds against its budgets from admission until it settles: the counters it was admitted
 * against (in the periods of its admission) and the amount added to them. Plain data: a task keeps it
 * with its charge until the task ends.
 */
export interface BudgetHold {
  keys: BudgetKey[];
  amount: number;
  /** The row (budget_holds) that keeps a relay call's hold across a stop until it settles. */
  id?: number;
  /** 0 when the hold counts no request (a realtime response: its session is the request); else 1. */
  requests?: 0;
}

/** The parties of a call whose budgets apply. */
export interface BudgetParty {
  token: { id: number; budget: Budget | null } | null;
  user: UserSnapshot & { budget?: Budget | null };
  group: string;
  /** The caller's language (the refusal is written in it). */
  lang?: Lang;
}

/** Usage of one period of a budget, as the API shows it. */
export interface PeriodUsage {
  period: Period;
  /** Unix seconds: the period's first second and the first of the next one (when it resets). */
  start: number;
  resets_at: number;
  /** The reset as local wall time in the operator's zone, e.g. 2026-11-26 00:00. */
  resets: string;
  zone: string;
  quota_cap: number;
  /** Charged in the period, plus what calls in flight hold. */
  quota_used: number;
  /** null = no quota cap. */
  quota_remaining: number | null;
  request_cap: number;
  requests_used: number;
  requests_remaining: number | null;
}

export interface BudgetStatus {
  budget: Budget | null;
  periods: PeriodUsage[];
}

interface Cap extends BudgetKey {
  quota: number;
  requests: number;
  end: number;
}

/** A call refused by a budget: 429 in the caller's format, naming the scope, the period and the reset. */
export class BudgetExhausted extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Record<string, unknown>,
    readonly kind: RefusalKind = 'quota',
    /** Seconds after which the call may fit: the period's reset, or a moment when only holds are in the way. */
    readonly retryAfter = 0,
  ) {
    super(key);
  }
}

/** Why a budget refused: requests or quota used up, a price above what is left, or a remainder held. */
export type RefusalKind = 'requests' | 'quota' | 'short' | 'held';

/** Seconds to wait when only the holds of calls in flight fill a cap (they settle within a call's time). */
const HELD_RETRY_SECONDS = 2;
/** Readings of a cap filled by holds before the call is refused (25, 50, 100, 200 ms apart). */
const HELD_RETRIES = 4;

const SCOPE_ORDER: Record<BudgetScope, number> = { token: 0, user: 1, group: 2 };
const PERIOD_ORDER: Record<Period, number> = { day: 0, week: 1, month: 2 };
const KNOWN_MAX = 100_000;
const NOTICE_EVERY_MS = 3600 * 1000;
/** Days a counter row is kept after its period ended (a year of history, and a month to spare). */
export const BUDGET_USAGE_RETENTION_DAYS = 400;
/** The longest each period can be, in days (a month row is kept at least the retention after its end). */
const LONGEST_DAYS: Record<Period, number> = { day: 1, week: 7, month: 31 };
const FIRST_PURGE_MS = 60_000;
const PURGE_EVERY_MS = 6 * 3600_000;

/**
 * Periodic budgets: quota and request caps per day, week and month on tokens, users and groups.
 *
 * The rule is the ledger's: admission is conditional, settlement is not.
 * - admit(): in one transaction, each counter the call falls under is raised by the call's reservation
 *   (its pre-consumed estimate) and one request, only where the period's charges plus the holds of calls
 *   in flight plus this estimate stay within the quota cap (and the calls within the request cap). One
 *   counter refusing rolls all back and the call is refused. The database decides, so every node
 *   sharing it agrees.
 * - settle(): a served call counts in full in the periods it was admitted in, whatever that does to
 *   the cap (the difference to its hold is added unconditionally); the next call is then refused.
 * - release(): a call no one served gives its hold and its request back.
 *
 * A caller with no budget on its token, its user or its group costs one check of cached values.
 */
@Injectable()
export class BudgetService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Budgets');
  private readonly http: SafeHttpClient;
  /** Counter rows known to exist (they are never removed while their period runs). */
  private readonly known = new Set<string>();
  private groupsRaw: string | null = null;
  private groups = new Map<string, Budget>();
  private readonly pending = new Set<Promise<void>>();
  private readonly noticedAt = new Map<string, number>();
  private purgeTimers: NodeJS.Timeout[] = [];

  /** The clock (unix seconds); tests move it to cross a period's end. */
  now: () => number = () => Math.floor(Date.now() / 1000);

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionService,
    private readonly mail: MailService,
  ) {
    this.http = SafeHttpClient.forConfig(config, options);
  }

  /** Holds that a stopped process left are given back before this one serves anything. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      const n = await this.recoverInterrupted(this.now());
      if (n) this.logger.warn(`${n} budget hold(s) of calls interrupted by the last stop were given back`);
    } catch (err) {
      this.logger.error(`interrupted budget holds not given back: ${(err as Error).message}`);
    }
    if (this.config.nodeType === 'master') {
      const purge = () =>
        void this.purgeUsage().catch((err: Error) =>
          this.logger.warn(`budget usage purge failed: ${err.message}`),
        );
      // Once soon after the start (a node restarted often still purges), then every six hours.
      const first = setTimeout(purge, FIRST_PURGE_MS);
      const every = setInterval(purge, PURGE_EVERY_MS);
      first.unref();
      every.unref();
      this.purgeTimers = [first, every];
    }
  }

  onModuleDestroy(): void {
    for (const t of this.purgeTimers) {
      clearTimeout(t);
      clearInterval(t);
    }
    this.purgeTimers = [];
  }

  /**
   * Deletes the counter rows of periods that ended more than BUDGET_USAGE_RETENTION_DAYS ago (the
   * master node's job); the number of rows deleted. Admission only touches current periods, so an old
   * row is never needed again.
   */
  async purgeUsage(now = this.now()): Promise<number> {
    const qb = this.ds.createQueryBuilder().delete().from(BudgetUsage);
    for (const period of PERIODS) {
      const before = now - (BUDGET_USAGE_RETENTION_DAYS + LONGEST_DAYS[period]) * 86_400;
      qb.orWhere(`(period = :p_${period} AND period_start < :b_${period})`, {
        [`p_${period}`]: period,
        [`b_${period}`]: before,
      });
    }
    const res = await qb.execute();
    return res.affected ?? 0;
  }

  /**
   * Gives back the holds of relay calls that cannot still be running (the ledger refunds those calls):
   * on a single node (no Redis) every hold made before `bootAt`; with several nodes this node's own and,
   * on the master, any older than a day.
   */
  async recoverInterrupted(bootAt: number): Promise<number> {
    const qb = this.ds
      .getRepository(BudgetHoldRow)
      .createQueryBuilder('h')
      .where('h.created_at <= :bootAt', { bootAt });
    if (this.config.redisUrl) {
      if (this.config.nodeType === 'master')
        qb.andWhere('(h.node_name = :me OR h.created_at < :stale)', {
          me: this.config.nodeName,
          stale: bootAt - 86_400,
        });
      else qb.andWhere('h.node_name = :me', { me: this.config.nodeName });
    }
    let given = 0;
    for (const row of await qb.orderBy('h.id', 'ASC').getMany()) {
      let hold: BudgetHold;
      try {
        hold = { ...(JSON.parse(row.hold) as BudgetHold), id: Number(row.id) };
      } catch {
        await this.ds.getRepository(BudgetHoldRow).delete({ id: row.id });
        continue;
      }
      if (await this.adjust(hold, -hold.amount, -(hold.requests ?? 1), -hold.amount)) given++;
    }
    return given;
  }

  /** The operator's time zone (option TimeZone), else the server's. */
  zone(): string {
    const zone = this.options.get('TimeZone');
    return zone && isTimeZone(zone) ? zone : serverTimeZone();
  }

  /** The caps of a group (option GroupBudgets), parsed once per change of the option. */
  groupBudget(group: string): Budget | null {
    const raw = this.options.get('GroupBudgets');
    if (raw !== this.groupsRaw) {
      this.groupsRaw = raw;
      this.groups = parseGroupBudgets(raw);
    }
    return this.groups.get(group) ?? null;
  }

  /** Every group with caps. */
  groupBudgets(): Map<string, Budget> {
    this.groupBudget('');
    return this.groups;
  }

  /** Whether any budget applies to the call: the cached check the relay makes on every call. */
  applies(p: BudgetParty): boolean {
    return !!(p.token?.budget || p.user.budget || this.groupBudget(p.group));
  }

  private caps(p: BudgetParty, now: number): Cap[] {
    const zone = this.zone();
    const out: Cap[] = [];
    const add = (scope: BudgetScope, subject: string, b: Budget | null | undefined) => {
      if (!b) return;
      for (const period of PERIODS) {
        const c = b[period];
        if (!c) continue;
        const { start, end } = periodBounds(zone, now, period);
        out.push({ scope, subject, period, start, end, quota: c.quota, requests: c.requests });
      }
    };
    if (p.token) add('token', String(p.token.id), p.token.budget);
    add('user', String(p.user.id), p.user.budget);
    add('group', p.group, this.groupBudget(p.group));
    // Rows are always locked in one order, so two admissions cannot deadlock.
    return out.sort(
      (a, b) =>
        SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] ||
        a.subject.localeCompare(b.subject) ||
        PERIOD_ORDER[a.period] - PERIOD_ORDER[b.period],
    );
  }

  /**
   * Admits a call against its budgets, holding part of each quota cap and one request on each counter;
   * null when no budget applies. Throws BudgetExhausted (nothing held) when a counter cannot take it.
   *
   * What is held is the call's bound (`bound()`, the most it can cost) where it fits. A bound that is an
   * estimate (a call without max_tokens) may be cut to what is left of the tightest cap, but only while
   * no other call holds any of it, so one call at a time holds less than its bound; an exact bound (a
   * fixed price) must fit whole. Admitted calls then exceed a cap only by what that one call spends past
   * its hold, or by answers longer than their bound (see docs/budgets.md).
   */
  async admit(
    p: BudgetParty,
    bound: () => number,
    opts: { durable?: boolean; exact?: boolean; countRequest?: boolean } = {},
  ): Promise<BudgetHold | null> {
    if (!this.applies(p)) return null;
    const now = this.now();
    const caps = this.caps(p, now);
    if (!caps.length) return null;
    const full = Math.max(0, Math.ceil(bound()));
    const keys = caps.map(({ scope, subject, period, start }) => ({ scope, subject, period, start }));
    const counted = opts.countRequest !== false;
    let id: number | undefined;
    let amount = full;
    for (let attempt = 0; ; attempt++) {
      await this.ensureRows(caps, now);
      let refused: Cap | null = null;
      try {
        await this.ds.transaction(async (m) => {
          amount = opts.exact ? full : await this.fitting(m, caps, full);
          // A call with a price is never admitted holding nothing; one given less than its bound takes the
          // last of a cap only while no other call holds any of it (one such call at a time).
          const partial = amount < full;
          if (partial && amount <= 0) {
            refused = caps.find((c) => c.quota) ?? caps[0];
            throw new Error('budget refused');
          }
          for (const c of caps) {
            if (!(await this.take(m, c, amount, now, counted, partial))) {
              refused = c;
              throw new Error('budget refused');
            }
          }
          if (opts.durable) {
            const res = await m.getRepository(BudgetHoldRow).insert({
              node_name: this.config.nodeName ?? '',
              created_at: now,
              hold: JSON.stringify(counted ? { keys, amount } : { keys, amount, requests: 0 }),
            });
            id = Number((res.identifiers[0] as { id: number | string }).id);
          }
        });
        break;
      } catch (err) {
        if (!refused) throw err;
        const row = await this.row(refused);
        // A counter row this node believed in is gone (removed by hand): create it again, once.
        if (!row && attempt === 0) {
          for (const c of caps) this.known.delete(rowKey(c));
          continue;
        }
        const cap: Cap = refused;
        const verdict = this.refusal(counted ? cap : { ...cap, requests: 0 }, row, opts.exact ? full : 0);
        // Holds are in the way: another call took part of what was left between the reading and the
        // raise, or calls that just ended are settling. Read again after a moment, a few times.
        if (verdict.kind === 'held' && attempt < HELD_RETRIES) {
          await new Promise((r) => setTimeout(r, 25 << attempt));
          continue;
        }
        throw verdict;
      }
    }
    const hold: BudgetHold = { keys, amount };
    if (id !== undefined) hold.id = id;
    if (!counted) hold.requests = 0;
    return hold;
  }

  /** The bound cut to what is left of the tightest quota cap (0 when one has nothing left). */
  private async fitting(m: EntityManager, caps: Cap[], bound: number): Promise<number> {
    let amount = bound;
    for (const c of caps) {
      if (!c.quota) continue;
      const row = await m
        .getRepository(BudgetUsage)
        .findOneBy({ scope: c.scope, subject: c.subject, period: c.period, period_start: c.start });
      amount = Math.min(amount, c.quota - Number(row?.quota ?? 0));
    }
    return Math.max(0, amount);
  }

  /** The conditional raise of one counter; false when the cap refuses it. */
  private async take(
    m: EntityManager,
    c: Cap,
    amount: number,
    now: number,
    counted: boolean,
    partial = false,
  ): Promise<boolean> {
    const qb = m
      .createQueryBuilder()
      .update(BudgetUsage)
      .set({
        quota: () => 'quota + :amount',
        held: () => 'held + :amount',
        requests: () => 'requests + :one',
        updated_at: () => ':now',
      })
      .where('scope = :scope AND subject = :subject AND period = :period AND period_start = :start', {
        scope: c.scope,
        subject: c.subject,
        period: c.period,
        start: c.start,
        amount,
        one: counted ? 1 : 0,
        now,
      });
    // Within the cap: charged + held + this amount ≤ cap, and something left (a free call too).
    if (c.quota) qb.andWhere('quota < :cap AND quota + :amount <= :cap', { cap: c.quota });
    if (c.quota && partial) qb.andWhere('held <= 0');
    if (c.requests && counted) qb.andWhere('requests < :rcap', { rcap: c.requests });
    const res = await qb.execute();
    return !!res.affected;
  }

  private row(c: Cap): Promise<BudgetUsage | null> {
    return this.ds
      .getRepository(BudgetUsage)
      .findOneBy({ scope: c.scope, subject: c.subject, period: c.period, period_start: c.start });
  }

  /**
   * Why a counter refused a call: its request cap is reached, its quota is used up, the call's exact
   * price is more than what is left, or what is left is held by calls in flight (a moment's wait).
   */
  private refusal(c: Cap, row: BudgetUsage | null, price = 0): BudgetExhausted {
    const quota = Number(row?.quota ?? 0);
    const held = Math.max(0, Number(row?.held ?? 0));
    const charged = quota - held;
    const kind: RefusalKind =
      c.requests && Number(row?.requests ?? 0) + 1 > c.requests
        ? 'requests'
        : charged >= c.quota
          ? 'quota'
          : price && charged + price > c.quota
            ? 'short'
            : 'held';
    const zone = this.zone();
    const now = this.now();
    return new BudgetExhausted(
      `relay_budget_${c.scope}_${c.period}_${kind}`,
      {
        group: c.subject,
        limit: c.requests,
        resets: localTime(zone, c.end),
        reset_at: c.end,
        zone,
        price,
        left: Math.max(0, c.quota - charged),
      },
      kind,
      kind === 'held' ? HELD_RETRY_SECONDS : Math.max(1, c.end - now),
    );
  }

  /** Counter rows are created before the admission's transaction (a missing row cannot be locked). */
  private async ensureRows(caps: Cap[], now: number): Promise<void> {
    const missing = caps.filter((c) => !this.known.has(rowKey(c)));
    if (!missing.length) return;
    await this.ds
      .createQueryBuilder()
      .insert()
      .into(BudgetUsage)
      .values(
        missing.map((c) => ({
          scope: c.scope,
          subject: c.subject,
          period: c.period,
          period_start: c.start,
          quota: 0,
          held: 0,
          requests: 0,
          updated_at: now,
        })),
      )
      .orIgnore()
      .execute();
    if (this.known.size > KNOWN_MAX) this.known.clear();
    for (const c of missing) this.known.add(rowKey(c));
  }

  /**
   * A served call counts in full in the periods it was admitted in: the difference between its charge
   * and its hold is added whatever the cap. The notice goes out when a counter passes the threshold.
   */
  settle(hold: BudgetHold | null | undefined, charged: number, notify?: BudgetParty): Promise<void> {
    if (!hold) return Promise.resolve();
    const delta = charged - hold.amount;
    const done =
      delta || hold.amount || hold.id !== undefined
        ? this.adjust(hold, delta, 0, -hold.amount).then(() => undefined)
        : Promise.resolve();
    this.track(done);
    if (notify && charged > 0 && this.options.num('BudgetNoticePercent') > 0)
      this.track(done.then(() => this.notice(hold, notify)));
    return done;
  }

  /** Adds a realtime response's charge to the counters its session was admitted against. */
  add(hold: BudgetHold | null | undefined, charged: number, notify?: BudgetParty): Promise<void> {
    if (!hold || charged <= 0) return Promise.resolve();
    const done = this.adjust(hold, charged, 0).then(() => undefined);
    this.track(done);
    if (notify && this.options.num('BudgetNoticePercent') > 0)
      this.track(done.then(() => this.notice(hold, notify)));
    return done;
  }

  /** A call no one served: its hold and its request go back. */
  release(hold: BudgetHold | null | undefined): void {
    if (!hold) return;
    this.track(this.adjust(hold, -hold.amount, -(hold.requests ?? 1), -hold.amount).then(() => undefined));
  }

  /** Resolves once every counter change queued so far is written. */
  async flush(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /**
   * Adds to the hold's counters (unconditionally) and removes its durable row, in one transaction; a
   * durable hold already given back (its row gone) changes nothing. True when applied.
   */
  private async adjust(hold: BudgetHold, quota: number, requests: number, held = 0): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.ds.transaction(async (m) => {
          if (hold.id !== undefined) {
            const gone = await m.getRepository(BudgetHoldRow).delete({ id: hold.id });
            if (!gone.affected) return false;
          }
          if (quota || requests || held)
            for (const k of hold.keys)
              await m
                .createQueryBuilder()
                .update(BudgetUsage)
                .set({
                  quota: () => 'quota + :q',
                  held: () => 'held + :h',
                  requests: () => 'requests + :r',
                  updated_at: () => ':now',
                })
                .where(
                  'scope = :scope AND subject = :subject AND period = :period AND period_start = :start',
                  {
                    scope: k.scope,
                    subject: k.subject,
                    period: k.period,
                    start: k.start,
                    q: quota,
                    h: held,
                    r: requests,
                    now: this.now(),
                  },
                )
                .execute();
          return true;
        });
      } catch (err) {
        if (attempt >= 4) {
          this.logger.error(
            `budget counters not updated (${quota} quota, ${requests} requests): ${(err as Error).message}`,
          );
          return false;
        }
        await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
      }
    }
  }

  /** Whether any quota cap of the hold's counters is reached (a realtime session then ends). */
  async exhausted(hold: BudgetHold | null | undefined, p: BudgetParty): Promise<BudgetExhausted | null> {
    if (!hold) return null;
    const now = this.now();
    for (const c of this.caps(p, now)) {
      if (!c.quota || !hold.keys.some((k) => rowKey(k) === rowKey(c))) continue;
      const row = await this.row(c);
      if (Number(row?.quota ?? 0) - Math.max(0, Number(row?.held ?? 0)) >= c.quota)
        return this.refusal({ ...c, requests: 0 }, row);
    }
    return null;
  }

  /** Usage of a budget in the current periods. */
  async status(scope: BudgetScope, subject: string, budget: Budget | null): Promise<BudgetStatus> {
    return (await this.statuses(scope, [[subject, budget]])).get(subject)!;
  }

  /** Usage of several subjects' budgets (one query). */
  async statuses(
    scope: BudgetScope,
    subjects: Array<[string, Budget | null]>,
  ): Promise<Map<string, BudgetStatus>> {
    const zone = this.zone();
    const now = this.now();
    const bounds = Object.fromEntries(PERIODS.map((p) => [p, periodBounds(zone, now, p)])) as Record<
      Period,
      { start: number; end: number }
    >;
    const wanted = subjects.filter(([, b]) => b).map(([s]) => s);
    const rows = wanted.length
      ? await this.ds
          .getRepository(BudgetUsage)
          .createQueryBuilder('b')
          .where('b.scope = :scope AND b.subject IN (:...subjects)', { scope, subjects: wanted })
          .andWhere('b.period_start IN (:...starts)', {
            starts: [...new Set(PERIODS.map((p) => bounds[p].start))],
          })
          .getMany()
      : [];
    const out = new Map<string, BudgetStatus>();
    for (const [subject, budget] of subjects) {
      const periods: PeriodUsage[] = [];
      for (const period of PERIODS) {
        const c = budget?.[period];
        if (!c) continue;
        const { start, end } = bounds[period];
        const row = rows.find(
          (r) => r.subject === subject && r.period === period && Number(r.period_start) === start,
        );
        const used = Number(row?.quota ?? 0);
        const requests = Number(row?.requests ?? 0);
        periods.push({
          period,
          start,
          resets_at: end,
          resets: localTime(zone, end),
          zone,
          quota_cap: c.quota,
          quota_used: used,
          quota_remaining: c.quota ? Math.max(0, c.quota - used) : null,
          request_cap: c.requests,
          requests_used: requests,
          requests_remaining: c.requests ? Math.max(0, c.requests - requests) : null,
        });
      }
      out.set(subject, { budget, periods });
    }
    return out;
  }

  /**
   * The notice of a budget past the operator's threshold (BudgetNoticePercent of a quota cap), by the
   * user's own notification setting (signed webhook or email), at most once an hour per counter.
   * Group budgets are shared: their notice goes to no single user.
   */
  private async notice(hold: BudgetHold, p: BudgetParty): Promise<void> {
    try {
      const percent = this.options.num('BudgetNoticePercent');
      const st = new Map<string, BudgetStatus>();
      for (const k of hold.keys) {
        if (k.scope === 'group') continue;
        const budget = k.scope === 'token' ? (p.token?.budget ?? null) : (p.user.budget ?? null);
        const key = `${k.scope}:${k.subject}`;
        const s = st.get(key) ?? (await this.status(k.scope, k.subject, budget));
        st.set(key, s);
        const u = s.periods.find((x) => x.period === k.period && x.start === k.start);
        if (!u || !u.quota_cap || u.quota_used * 100 < u.quota_cap * percent) continue;
        const mark = `${rowKey(k)}`;
        if (Date.now() - (this.noticedAt.get(mark) ?? 0) < NOTICE_EVERY_MS) continue;
        this.noticedAt.set(mark, Date.now());
        await this.send(p.user, k, u, Math.floor((u.quota_used * 100) / u.quota_cap));
      }
    } catch (err) {
      this.logger.warn(`budget notice for user ${p.user.id} not delivered: ${(err as Error).message}`);
    }
  }

  private async send(user: UserSnapshot, k: BudgetKey, u: PeriodUsage, percent: number): Promise<void> {
    const lang: Lang = 'zh';
    const words = (l: Lang) => ({
      scope: l === 'zh' ? (k.scope === 'token' ? '令牌' : '用户') : k.scope === 'token' ? 'Token' : 'User',
      period:
        l === 'zh'
          ? { day: '每日', week: '每周', month: '每月' }[k.period]
          : k.period === 'day'
            ? 'daily'
            : `${k.period}ly`,
    });
    const params = (l: Lang) => ({
      ...words(l),
      percent,
      used: u.quota_used,
      cap: u.quota_cap,
      resets: u.resets,
      zone: u.zone,
    });
    const text = `${translate('budget_notice_text', lang, params(lang))}\n${translate('budget_notice_text', 'en', params('en'))}`;
    const subject = `${translate('budget_notice_subject', lang)} / ${translate('budget_notice_subject', 'en')}`;
    await deliverNotice(
      { http: this.http, mail: this.mail, smtpConfigured: !!this.options.get('SMTPServer') },
      { ...parseSetting(user.setting), email: user.email },
      { type: 'budget_notice', title: subject, content: text, values: [k.scope, k.period, percent] },
    );
  }
}

function rowKey(k: { scope: string; subject: string; period: string; start: number }): string {
  return `${k.scope}\u0000${k.subject}\u0000${k.period}\u0000${k.start}`;
}

/** Local wall time of an instant in `zone`: 2026-11-26 00:00. */
export function localTime(zone: string, ts: number): string {
  return new Date((ts + offsetAt(zone, ts)) * 1000).toISOString().slice(0, 16).replace('T', ' ');
}
