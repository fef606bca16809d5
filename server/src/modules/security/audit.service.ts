import { ApiProperty } from '@nestjs/swagger';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import { Brackets, DataSource } from 'typeorm';
import { fail } from '../../common/app-error';
import type { AuthUser } from '../../common/http/request-context';
import { Page, pageOf, parsePage } from '../../common/pagination';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { AuditEntry } from '../../database/entities';
import { OptionService } from '../option';
import type { Lang } from '../../common/i18n/messages';
import { AuditCall, AuditSpec, AuditText } from './audit-actions';
import { AuditTarget, Changes, diff, snapshot, Snapshot } from './audit-snapshots';
import { renderSummary, storedSummary } from './audit-summary';

export interface AuditRecord {
  actor: AuthUser;
  ip: string;
  requestId?: string;
  action: string;
  targetType: AuditTarget;
  targetId?: string;
  targetName?: string;
  changes?: Changes | null;
  /** A bulk action's summary: a key and parameters (rendered in each reader's language) or plain text. */
  summary?: AuditText | string;
}

export class AuditView {
  @ApiProperty() id!: number;
  @ApiProperty() created_at!: number;
  @ApiProperty() actor_id!: number;
  @ApiProperty() actor_name!: string;
  @ApiProperty() actor_role!: number;
  @ApiProperty() action!: string;
  @ApiProperty() target_type!: string;
  @ApiProperty() target_id!: string;
  @ApiProperty() target_name!: string;
  @ApiProperty() ip!: string;
  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'field → {from, to}; secrets show as changed, never their values',
    additionalProperties: {
      type: 'object',
      properties: { from: {}, to: {}, secret: { type: 'boolean', enum: [true] } },
    },
  })
  changes!: Changes | null;
  @ApiProperty({ description: "a bulk action's summary (counts, names), in the caller's language" })
  summary!: string;
  @ApiProperty() request_id!: string;
}

/** The states of a call's targets taken before it ran; `finish` compares and writes. */
export interface AuditCapture {
  finish(result: unknown): Promise<void>;
}

const MAX_TARGETS = 200;
const str = (v: unknown, max = 128) => (typeof v === 'string' ? v.trim().slice(0, max) : '');
const ids = (values: unknown[]): string[] =>
  values
    .filter((v) => (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && v !== ''))
    .map(String)
    .slice(0, MAX_TARGETS);

function toView(e: AuditEntry, lang: Lang): AuditView {
  let changes: Changes | null;
  try {
    changes = e.changes ? (JSON.parse(e.changes) as Changes) : null;
  } catch {
    changes = null;
  }
  return {
    id: Number(e.id),
    created_at: e.created_at,
    actor_id: e.actor_id,
    actor_name: e.actor_name,
    actor_role: e.actor_role,
    action: e.action,
    target_type: e.target_type,
    target_id: e.target_id,
    target_name: e.target_name,
    ip: e.ip,
    changes,
    summary: renderSummary(e.summary, lang),
    request_id: e.request_id,
  };
}

/**
 * The audit trail: an append-only record of administrative changes. Entries are written after the
 * change succeeded, with the fields that really changed; a save that changed nothing writes nothing.
 * The API has no route that edits or deletes an entry.
 */
@Injectable()
export class AuditService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async record(r: AuditRecord): Promise<void> {
    await this.ds.getRepository(AuditEntry).insert({
      created_at: nowSeconds(),
      actor_id: r.actor.id,
      actor_name: r.actor.username.slice(0, 64),
      actor_role: r.actor.role,
      action: r.action.slice(0, 64),
      target_type: r.targetType,
      target_id: (r.targetId ?? '').slice(0, 128),
      target_name: (r.targetName ?? '').slice(0, 128),
      ip: (r.ip ?? '').slice(0, 64),
      changes: r.changes && Object.keys(r.changes).length ? JSON.stringify(r.changes) : null,
      summary: storedSummary(r.summary),
      request_id: (r.requestId ?? '').slice(0, 64),
      node_name: this.config.nodeName.slice(0, 64),
    });
  }

  /** Snapshots the targets of an audited call before it runs. */
  async begin(spec: AuditSpec, req: FastifyRequest, call: AuditCall): Promise<AuditCapture> {
    const before = new Map<string, Snapshot | null>();
    for (const id of ids(spec.ids?.(call) ?? [])) before.set(id, await this.snap(spec.target, id));
    return {
      finish: async (result: unknown) => {
        const done: AuditCall = { ...call, result };
        const actor = req.auth;
        if (!actor) return;
        const base = {
          actor,
          ip: req.ip,
          requestId: String(req.id ?? ''),
          action: typeof spec.action === 'function' ? spec.action(done) : spec.action,
          targetType: spec.target,
        };
        if (spec.summary) {
          const summary = spec.summary(done);
          if (summary !== null) await this.record({ ...base, summary });
          return;
        }
        for (const [id, was] of before) {
          const now = await this.snap(spec.target, id);
          const changes = diff(was, now);
          if (!Object.keys(changes).length && !spec.always) continue;
          const name = now?.name || was?.name || '';
          await this.record({
            ...base,
            targetId: id,
            targetName: name,
            changes,
          });
        }
        for (const id of ids(spec.createdIds?.(done) ?? [])) {
          const now = await this.snap(spec.target, id);
          if (!now) continue;
          const realId = typeof now.fields.id === 'number' ? String(now.fields.id) : id;
          await this.record({ ...base, targetId: realId, targetName: now.name, changes: diff(null, now) });
        }
      },
    };
  }

  private snap(target: AuditTarget, id: string): Promise<Snapshot | null> {
    return snapshot(this.ds, this.options, target, id);
  }

  // ---- reading ----

  /** A page of entries, summaries in `lang`. */
  async list(query: Record<string, unknown>, lang: Lang): Promise<Page<AuditView>> {
    const q = parsePage(query);
    const [rows, total] = await this.filtered(query)
      .orderBy('a.id', 'DESC')
      .skip(q.offset)
      .take(q.pageSize)
      .getManyAndCount();
    return pageOf(
      rows.map((e) => toView(e, lang)),
      total,
      q,
    );
  }

  /** The matching entries as CSV (newest first, at most 10,000 rows), summaries in `lang`. */
  async csv(query: Record<string, unknown>, lang: Lang): Promise<string> {
    const rows = await this.filtered(query).orderBy('a.id', 'DESC').take(10_000).getMany();
    const head = [
      'id',
      'time',
      'actor_id',
      'actor',
      'actor_role',
      'action',
      'target_type',
      'target_id',
      'target',
      'ip',
      'changes',
      'summary',
      'request_id',
    ];
    const cell = (v: string | number | null) => {
      let s = v === null ? '' : String(v);
      // A cell a spreadsheet would run as a formula is quoted as text.
      if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    const lines = rows.map((e) =>
      [
        e.id,
        new Date(e.created_at * 1000).toISOString(),
        e.actor_id,
        e.actor_name,
        e.actor_role,
        e.action,
        e.target_type,
        e.target_id,
        e.target_name,
        e.ip,
        e.changes ?? '',
        renderSummary(e.summary, lang),
        e.request_id,
      ]
        .map(cell)
        .join(','),
    );
    return [head.join(','), ...lines].join('\r\n') + '\r\n';
  }

  private filtered(query: Record<string, unknown>) {
    const qb = this.ds.getRepository(AuditEntry).createQueryBuilder('a');
    const int = (name: string): number | null => {
      const raw = query[name];
      if (raw === undefined || raw === '') return null;
      if (typeof raw !== 'string' || !/^\d{1,12}$/.test(raw))
        throw fail('log_param_invalid', { field: name, reason: 'not a number' });
      return Number(raw);
    };
    const actorId = int('actor_id');
    if (actorId !== null) qb.andWhere('a.actor_id = :actorId', { actorId });
    const actor = str(query.actor, 64);
    if (actor) qb.andWhere('a.actor_name = :actor', { actor });
    const action = str(query.action, 64);
    if (action) {
      // `user` matches every user action; `user.update` only that one.
      qb.andWhere(
        new Brackets((w) => {
          w.where('a.action = :action', { action });
          if (!action.includes('.')) w.orWhere('a.target_type = :action', { action });
        }),
      );
    }
    const targetType = str(query.target_type, 32);
    if (targetType) qb.andWhere('a.target_type = :targetType', { targetType });
    const targetId = str(query.target_id, 128);
    if (targetId) qb.andWhere('a.target_id = :targetId', { targetId });
    const start = int('start_timestamp');
    if (start !== null) qb.andWhere('a.created_at >= :start', { start });
    const end = int('end_timestamp');
    if (end !== null) qb.andWhere('a.created_at <= :end', { end });
    return qb;
  }
}
