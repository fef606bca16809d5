import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, SelectQueryBuilder } from 'typeorm';
import { fail, forbidden } from '../../common/app-error';
import { CryptoService } from '../../common/crypto.service';
import type { AuthUser } from '../../common/http/request-context';
import { escapeLike, LIKE_ESCAPE, Page, pageOf, parsePage } from '../../common/pagination';
import { nowSeconds } from '../../common/time';
import { Role, TopUp, User } from '../../database/entities';
import { OptionService } from '../option';
import { EPAY_SUBMIT_PATH, EPAY_TRADE_SUCCESS, epayPurchaseParams, epayVerify, moneyToCents } from './epay';
import { AdminTopUpView, toTopUpView, TopUpInfoView, TopUpView } from './topup.view';
import { Credit, WalletCreditService } from './wallet-credit.service';
import { TRADE_NO_MAX, type CompleteTopUpDto, type PayDto } from './topup.dto';

import type { UnknownObject as Raw } from '../../common/json';

export const TopUpStatus = { Pending: 'pending', Success: 'success' } as const;

/** What an amount buys and costs. */
export interface Quote {
  /** Quota credited when the order is paid. */
  quota: number;
  /** What the user pays, in whole cents of the gateway's currency. */
  cents: number;
}

export interface PayForm {
  /** The gateway's form address (`<PayAddress>/submit.php`). */
  url: string;
  /** The signed form fields. */
  params: Record<string, string>;
  trade_no: string;
}

export interface PayMethod {
  name: string;
  type: string;
  color?: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * Online top-up through an epay gateway: quotes, pending orders, the gateway's signed callback, and an
 * admin's manual completion. An order records the quota it credits when it is created, so a later
 * change of QuotaPerUnit or Price does not change what was bought.
 */
@Injectable()
export class TopUpService {
  private readonly logger = new Logger('TopUp');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
    private readonly wallet: WalletCreditService,
  ) {}

  private get repo() {
    return this.ds.getRepository(TopUp);
  }

  /** PayAddress, EpayId and EpayKey are all set. */
  onlineEnabled(): boolean {
    const o = this.options;
    return !!(o.get('PayAddress') && o.get('EpayId') && o.get('EpayKey'));
  }

  payMethods(): PayMethod[] {
    // The definition's check guarantees each entry's name and type.
    return this.options.json('PayMethods') as unknown as PayMethod[];
  }

  /** TopupGroupRatio of the group; a missing or zero ratio counts as 1. */
  groupRatio(group: string): number {
    const map = this.options.json('TopupGroupRatio');
    const r = Object.hasOwn(map, group) ? map[group] : undefined;
    return typeof r === 'number' && Number.isFinite(r) && r > 0 ? r : 1;
  }

  info(me: AuthUser): TopUpInfoView {
    const o = this.options;
    return {
      enable_online_topup: this.onlineEnabled(),
      pay_methods: this.payMethods(),
      min_topup: o.num('MinTopUp'),
      price: o.num('Price'),
      topup_group_ratio: this.groupRatio(me.group),
      quota_per_unit: o.num('QuotaPerUnit'),
      display_in_currency: o.bool('DisplayInCurrencyEnabled'),
      usd_exchange_rate: o.num('USDExchangeRate'),
      topup_link: o.get('TopUpLink'),
    };
  }

  /**
   * amount × Price × TopupGroupRatio[group]. In currency display mode `amount` counts units (dollars:
   * QuotaPerUnit quota each); otherwise it is quota, and the minimum is MinTopUp units of quota.
   */
  quote(me: AuthUser, raw: number | undefined): Quote {
    const o = this.options;
    const perUnit = o.num('QuotaPerUnit');
    const inCurrency = o.bool('DisplayInCurrencyEnabled');
    if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw <= 0) {
      if (typeof raw === 'number' && raw > Number.MAX_SAFE_INTEGER) throw fail('topup_amount_too_large');
      throw fail('topup_amount_invalid');
    }
    const amount = raw;
    const min = inCurrency ? o.num('MinTopUp') : Math.ceil(o.num('MinTopUp') * perUnit);
    if (amount < min) throw fail('topup_amount_min', { min });
    const quota = inCurrency ? Math.round(amount * perUnit) : amount;
    if (!Number.isSafeInteger(quota)) throw fail('topup_amount_too_large');
    const units = inCurrency ? amount : amount / perUnit;
    // toPrecision drops the binary noise of the products (7.3 × 3 = 21.899999…) before rounding to cents.
    const cents = Math.round(
      Number((units * o.num('Price') * this.groupRatio(me.group) * 100).toPrecision(12)),
    );
    if (!Number.isFinite(cents) || cents > 1e14) throw fail('topup_amount_too_large');
    if (cents < 1) throw fail('topup_money_too_low');
    return { quota, cents };
  }

  /** Creates a pending order and the signed form the browser posts to the gateway. */
  async pay(me: AuthUser, body: PayDto): Promise<PayForm> {
    if (!this.onlineEnabled()) throw fail('topup_disabled');
    const q = this.quote(me, body.amount);
    const method = str(body.payment_method);
    if (!method || !this.payMethods().some((m) => m.type === method)) throw fail('topup_pay_method_invalid');
    const base = this.options.get('CustomCallbackAddress') || this.options.get('ServerAddress');
    if (!base) throw fail('server_address_required');
    // The order must be creditable when it is paid: refuse it now if the balance could not hold it.
    const user = await this.ds
      .getRepository(User)
      .findOne({ where: { id: me.id }, select: { id: true, quota: true } });
    if (!user || Number(user.quota) + q.quota > Number.MAX_SAFE_INTEGER)
      throw fail('wallet_balance_overflow');

    const tradeNo = `USR${me.id}NO${CryptoService.randomString(6)}${nowSeconds()}`;
    const money = (q.cents / 100).toFixed(2);
    const amount = typeof body.amount === 'number' ? body.amount : 0;
    await this.repo.insert({
      user_id: me.id,
      amount: q.quota,
      money: q.cents / 100,
      trade_no: tradeNo,
      payment_method: method.slice(0, 32),
      create_time: nowSeconds(),
      complete_time: 0,
      status: TopUpStatus.Pending,
    });
    const params = epayPurchaseParams({
      pid: this.options.get('EpayId'),
      key: this.options.get('EpayKey'),
      type: method,
      outTradeNo: tradeNo,
      name: `TUC${amount}`,
      money,
      notifyUrl: `${base}/api/user/epay/notify`,
      returnUrl: `${base}/api/user/epay/return`,
    });
    return { url: this.options.get('PayAddress') + EPAY_SUBMIT_PATH, params, trade_no: tradeNo };
  }

  /**
   * The gateway's callback. Answers `success` once the order is credited (or already was, or the
   * event is not a payment), `fail` otherwise so that the gateway retries or gives up. The signature,
   * the merchant id and the paid amount are checked before anything is written.
   */
  async notify(raw: Raw): Promise<'success' | 'fail'> {
    if (!this.onlineEnabled()) return 'fail';
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw ?? {})) {
      if (typeof v === 'string') params[k] = v;
      else if (typeof v === 'number') params[k] = String(v);
      else return 'fail';
    }
    if (!epayVerify(params, this.options.get('EpayKey'))) {
      this.logger.warn(
        `epay callback with a bad signature (out_trade_no ${String(params.out_trade_no).slice(0, 64)})`,
      );
      return 'fail';
    }
    if (params.pid !== undefined && params.pid !== this.options.get('EpayId')) return 'fail';
    if (params.trade_status !== EPAY_TRADE_SUCCESS) return 'success';
    const tradeNo = params.out_trade_no ?? '';
    if (!tradeNo || tradeNo.length > 64) return 'fail';
    const order = await this.repo.findOneBy({ trade_no: tradeNo });
    if (!order) return 'fail';
    const paid = moneyToCents(params.money ?? '');
    if (paid === null || paid !== Math.round(Number(order.money) * 100)) {
      this.logger.warn(
        `epay callback for ${tradeNo}: paid ${String(params.money).slice(0, 32)}, order is ${order.money}`,
      );
      return 'fail';
    }
    if (order.status === TopUpStatus.Success) return 'success';
    if (order.status !== TopUpStatus.Pending) return 'fail';
    const method =
      typeof params.type === 'string' && params.type ? params.type.slice(0, 32) : order.payment_method;
    const credited = await this.completeOrder(order, method, (q) => ({
      key: 'log_text_topup_paid',
      params: { amount: q, money: Number(order.money).toFixed(2) },
    }));
    if (credited) return 'success';
    const now = await this.repo.findOneBy({ id: order.id });
    return now?.status === TopUpStatus.Success ? 'success' : 'fail';
  }

  /** An admin marks a pending order paid (the gateway's callback never came). Completed orders are left as they are. */
  async complete(actor: AuthUser, raw: CompleteTopUpDto): Promise<TopUpView> {
    const tradeNo = str(raw.trade_no);
    if (!tradeNo) throw fail('topup_trade_no_required');
    const order = tradeNo.length <= TRADE_NO_MAX ? await this.repo.findOneBy({ trade_no: tradeNo }) : null;
    if (!order) throw fail('topup_order_not_found');
    const owner = await this.ds
      .getRepository(User)
      .findOne({ where: { id: order.user_id }, select: { id: true, role: true } });
    // Like add_quota: nobody credits a user of the same or a higher role (themselves included), except root.
    if (actor.role < Role.Root && (!owner || owner.role >= actor.role)) throw forbidden('cannot_act_on_peer');
    if (order.status === TopUpStatus.Pending) {
      await this.completeOrder(order, order.payment_method, (q) => ({
        key: 'log_text_topup_completed',
        params: { amount: q, money: Number(order.money).toFixed(2), actor: actor.username },
      }));
    }
    const now = await this.repo.findOneByOrFail({ id: order.id });
    if (now.status !== TopUpStatus.Success) throw fail('topup_order_not_pending');
    return toTopUpView(now);
  }

  /** Flips the order from pending to success and credits it, once. */
  private async completeOrder(order: TopUp, method: string, content: Credit['content']): Promise<boolean> {
    const credit = await this.wallet.creditOnce(async (m) => {
      const res = await m
        .createQueryBuilder()
        .update(TopUp)
        .set({ status: TopUpStatus.Success, complete_time: nowSeconds(), payment_method: method })
        .where('id = :id AND status = :pending', { id: order.id, pending: TopUpStatus.Pending })
        .execute();
      if (!res.affected) return null;
      return {
        userId: order.user_id,
        quota: Number(order.amount),
        content,
        other: { trade_no: order.trade_no, payment_method: method, money: Number(order.money) },
      };
    });
    return credit !== null;
  }

  async listSelf(me: AuthUser, query: Raw): Promise<Page<TopUpView>> {
    const q = parsePage(query);
    const qb = this.repo.createQueryBuilder('t').where('t.user_id = :uid', { uid: me.id });
    this.filter(qb, query);
    const [rows, total] = await qb.orderBy('t.id', 'DESC').skip(q.offset).take(q.pageSize).getManyAndCount();
    return pageOf(rows.map(toTopUpView), total, q);
  }

  async listAll(query: Raw): Promise<Page<AdminTopUpView>> {
    const q = parsePage(query);
    const qb = this.repo.createQueryBuilder('t');
    const uid = str(query.user_id);
    if (uid) {
      if (!/^\d{1,10}$/.test(uid))
        throw fail('field_invalid', { field: 'user_id', reason: 'must be a user id' });
      qb.andWhere('t.user_id = :uid', { uid: Number(uid) });
    }
    this.filter(qb, query);
    const [rows, total] = await qb.orderBy('t.id', 'DESC').skip(q.offset).take(q.pageSize).getManyAndCount();
    const ids = [...new Set(rows.map((r) => r.user_id))];
    const users = ids.length
      ? await this.ds
          .getRepository(User)
          .find({ where: { id: In(ids) }, select: { id: true, username: true } })
      : [];
    const names = new Map(users.map((u) => [u.id, u.username]));
    return pageOf(
      rows.map((r) => ({ ...toTopUpView(r), username: names.get(r.user_id) ?? '' })),
      total,
      q,
    );
  }

  /** `keyword`: part of the order number (literal); `status`: pending or success. */
  private filter(qb: SelectQueryBuilder<TopUp>, query: Raw): void {
    const keyword = str(query.keyword);
    if (keyword) qb.andWhere(`t.trade_no LIKE :kw ${LIKE_ESCAPE}`, { kw: `%${escapeLike(keyword)}%` });
    const status = str(query.status);
    if (status) {
      if (status !== TopUpStatus.Pending && status !== TopUpStatus.Success)
        throw fail('topup_status_filter_invalid');
      qb.andWhere('t.status = :status', { status });
    }
  }

  /** Where the gateway sends the browser back: the console's wallet page. */
  returnUrl(): string {
    return `${this.options.get('ServerAddress')}/topup`;
  }
}
