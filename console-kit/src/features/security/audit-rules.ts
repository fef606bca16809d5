import type { TFunction } from 'i18next';
import type { AuditEntry } from '../../lib/security-api';

/** `user.create`, `channel.tag_edit`: the action ids the server records (two parts). */
const ACTION_ID = /^[a-z]+\.[a-z0-9_]+$/;
const FIELD_ID = /^[a-z][a-z0-9_]*$/;

/** An action in words (`audit.actions.user.create`); an action the console does not know stays its id. */
export function actionLabel(action: string, t: TFunction): string {
  return ACTION_ID.test(action) ? t(`audit.actions.${action}`, { defaultValue: action }) : action;
}

/** What an entry acted on: its kind in words, then `#id` and `(name)` when known. */
export function targetLabel(
  entry: Pick<AuditEntry, 'target_type' | 'target_id' | 'target_name'>,
  t: TFunction,
) {
  const kind = FIELD_ID.test(entry.target_type)
    ? t(`audit.targets.${entry.target_type}`, { defaultValue: entry.target_type })
    : entry.target_type;
  return `${kind}${entry.target_id ? ` #${entry.target_id}` : ''}${entry.target_name ? ` (${entry.target_name})` : ''}`;
}

function fieldLabel(field: string, t: TFunction): string {
  return FIELD_ID.test(field) ? t(`audit.fields.${field}`, { defaultValue: field }) : field;
}

function shown(value: unknown, t: TFunction): string {
  if (value === null || value === undefined || value === '') return '∅';
  if (typeof value === 'boolean') return t(value ? 'audit.yes' : 'audit.no');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * "field: from → to" lines with each field in words (an unknown one as named), yes/no for switches;
 * secret fields only say that they changed. The server's summary of a bulk action, already in the
 * console's language, comes last.
 */
export function describeChanges(entry: Pick<AuditEntry, 'changes' | 'summary'>, t: TFunction): string[] {
  const lines = Object.entries(entry.changes ?? {}).map(([field, change]) =>
    'secret' in change && change.secret
      ? `${fieldLabel(field, t)} ${t('audit.secret')}`
      : `${fieldLabel(field, t)}: ${shown(change.from, t)} → ${shown(change.to, t)}`,
  );
  if (entry.summary) lines.push(entry.summary);
  return lines;
}
