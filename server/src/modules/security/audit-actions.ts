import { PRICE_KEYS } from '../option';
import type { AuditTarget } from './audit-snapshots';
import type { MessageKey } from '../../common/i18n/messages';

import { asObject, type UnknownObject as Raw } from '../../common/json';

export interface AuditCall {
  body: Raw;
  params: Raw;
  query: Raw;
  /** What the handler returned (after the call only). */
  result?: unknown;
}

/**
 * A bulk action's summary as a message key plus its parameters (names, counts, field names), stored
 * as such and rendered in each reader's language.
 */
export interface AuditText {
  key: MessageKey;
  params: Record<string, string | number>;
}

export interface AuditSpec {
  /** `user.update`; a function when the body names the action (user manage). */
  action: string | ((c: AuditCall) => string);
  target: AuditTarget;
  /** The objects the call acts on, known before it runs; each is compared before and after. */
  ids?: (c: AuditCall) => unknown[];
  /** Objects known only from the result (creations). */
  createdIds?: (c: AuditCall) => unknown[];
  /**
   * A bulk action without per-object states: its summary, '' to record it without one, or null when
   * nothing happened.
   */
  summary?: (c: AuditCall) => AuditText | '' | null;
  /** Recorded even though nothing changed (a key was read, a factor reset). */
  always?: boolean;
}

export const obj = asObject;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const count = (v: unknown) => (typeof v === 'number' ? v : Number(obj(v).count ?? obj(v).deleted ?? NaN));
const summary = (key: MessageKey, params: Record<string, string | number>): AuditText => ({ key, params });
const counted = (c: AuditCall): AuditText | '' | null => {
  const n = count(c.result);
  return Number.isFinite(n) && n <= 0
    ? null
    : Number.isFinite(n)
      ? summary('audit_summary_count', { count: n })
      : '';
};
/** Unix seconds as people read them, in UTC (`2026-11-26 01:15:06 UTC`); anything else as given. */
const utc = (v: unknown): string => {
  const seconds = Number(v);
  return Number.isFinite(seconds) && seconds >= 0 && seconds < 1e11
    ? new Date(seconds * 1000)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
    : String(v).slice(0, 32);
};
const clip = (v: unknown) => (typeof v === 'string' ? v.slice(0, 64) : '');

/**
 * Every administrative change, keyed by controller class and handler name. A handler not listed here
 * writes no audit entry; one listed writes an entry per object that really changed.
 */
export const AUDIT_ACTIONS: Record<string, AuditSpec> = {
  // users
  'UserController.create': {
    action: 'user.create',
    target: 'user',
    createdIds: (c) => [obj(c.result).id ?? `name:${clip(c.body.username)}`],
  },
  'UserController.update': { action: 'user.update', target: 'user', ids: (c) => [c.body.id] },
  'UserController.manage': {
    action: (c) => `user.${clip(c.body.action) || 'manage'}`,
    target: 'user',
    ids: (c) => [c.body.id],
  },
  'TwoFactorAdminController.reset': {
    action: 'user.2fa_reset',
    target: 'user',
    ids: (c) => [c.params.id],
    always: true,
  },
  'TwoFactorAdminController.resetTotp': {
    action: 'user.totp_reset',
    target: 'user',
    ids: (c) => [c.params.id],
    always: true,
  },
  'TwoFactorAdminController.resetPasskeys': {
    action: 'user.passkey_reset',
    target: 'user',
    ids: (c) => [c.params.id],
    always: true,
  },
  // options
  'OptionController.update': { action: 'option.update', target: 'option', ids: (c) => [c.body.key] },
  'OptionController.resetModelRatio': {
    action: 'option.reset_prices',
    target: 'option',
    ids: () => [...PRICE_KEYS],
  },
  // channels
  'ChannelController.create': {
    action: 'channel.create',
    target: 'channel',
    createdIds: (c) => (Array.isArray(obj(c.result).ids) ? list(obj(c.result).ids) : [obj(c.result).id]),
  },
  'ChannelController.update': { action: 'channel.update', target: 'channel', ids: (c) => [c.body.id] },
  'ChannelController.remove': { action: 'channel.delete', target: 'channel', ids: (c) => [c.params.id] },
  'ChannelController.removeMany': {
    action: 'channel.delete',
    target: 'channel',
    ids: (c) => list(c.body.ids),
  },
  'ChannelController.setStatus': {
    action: 'channel.status',
    target: 'channel',
    ids: (c) => [c.params.id],
  },
  'ChannelController.setStatuses': {
    action: 'channel.status',
    target: 'channel',
    ids: (c) => list(c.body.ids),
  },
  'ChannelController.removeDisabled': {
    action: 'channel.delete_disabled',
    target: 'channel',
    summary: counted,
  },
  'ChannelController.fix': {
    action: 'channel.fix_abilities',
    target: 'channel',
    summary: () => '',
  },
  'ChannelController.copy': {
    action: 'channel.copy',
    target: 'channel',
    createdIds: (c) => [obj(c.result).id],
  },
  'ChannelController.enableTag': {
    action: 'channel.tag_enable',
    target: 'channel',
    summary: (c) => tagged(c),
  },
  'ChannelController.disableTag': {
    action: 'channel.tag_disable',
    target: 'channel',
    summary: (c) => tagged(c),
  },
  'ChannelController.editTag': { action: 'channel.tag_edit', target: 'channel', summary: (c) => tagged(c) },
  'ChannelController.batchTag': { action: 'channel.tag_set', target: 'channel', summary: (c) => tagged(c) },
  'ChannelController.revealKey': {
    action: 'channel.key_reveal',
    target: 'channel',
    ids: (c) => [c.params.id],
    always: true,
  },
  // redemption codes (the codes themselves are secrets: never in the trail)
  'RedemptionController.create': {
    action: 'redemption.create',
    target: 'redemption',
    summary: (c) =>
      summary('audit_summary_redemptions_created', {
        name: clip(c.body.name),
        count: list(c.result).length,
        quota: typeof c.body.quota === 'number' ? c.body.quota : clip(String(c.body.quota)),
      }),
  },
  'RedemptionController.update': {
    action: 'redemption.update',
    target: 'redemption',
    ids: (c) => [c.body.id],
  },
  'RedemptionController.remove': {
    action: 'redemption.delete',
    target: 'redemption',
    ids: (c) => [c.params.id],
  },
  'RedemptionController.removeInvalid': {
    action: 'redemption.delete_invalid',
    target: 'redemption',
    summary: counted,
  },
  // content logs: the per-token and per-user switches
  'ContentLogController.setToken': {
    action: 'token.content_log',
    target: 'token',
    ids: (c) => [c.params.id],
  },
  'ContentLogController.setUser': {
    action: 'user.content_log',
    target: 'user',
    ids: (c) => [c.params.id],
  },
  // money and logs
  'TopUpController.complete': { action: 'topup.complete', target: 'topup', ids: (c) => [c.body.trade_no] },
  'LogController.deleteBefore': {
    action: 'log.delete',
    target: 'log',
    summary: (c) => {
      const n = count(c.result);
      return n > 0
        ? summary('audit_summary_logs_deleted', { before: utc(c.query.target_timestamp), count: n })
        : null;
    },
  },
};

function tagged(c: AuditCall): AuditText | null {
  const n = count(c.result);
  if (Number.isFinite(n) && n <= 0) return null;
  const fields = Object.keys(c.body).filter((k) => k !== 'tag' && k !== 'ids' && k !== 'key');
  const params = { tag: clip(c.body.tag), count: Number.isFinite(n) ? n : '?' };
  return fields.length
    ? summary('audit_summary_tag_fields', { ...params, fields: fields.join(', ').slice(0, 96) })
    : summary('audit_summary_tag', params);
}
