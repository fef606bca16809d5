import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { nowSeconds } from '../../common/time';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { LogEntry, LogType } from '../../database/entities';
import { LogText, logTextColumns } from './log-text';

export interface RecordInput {
  userId: number;
  username: string;
  type: LogType;
  /** A message key plus parameters (rendered in each reader's language), or fixed text. */
  content: string | LogText;
  quota?: number;
  other?: Record<string, unknown>;
}

/** Top-up, management and system logs. A balance change and its log are written in one transaction. */
@Injectable()
export class LogService {
  constructor(
    @InjectRepository(LogEntry) private readonly repo: Repository<LogEntry>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async record(input: RecordInput, manager?: EntityManager): Promise<void> {
    const text = typeof input.content === 'string' ? null : logTextColumns(input.content, input.other);
    const other = text ? text.other : input.other;
    const row: Partial<LogEntry> = {
      user_id: input.userId,
      username: input.username,
      type: input.type,
      content: text ? text.content : (input.content as string),
      quota: input.quota ?? 0,
      created_at: nowSeconds(),
      node_name: this.config.nodeName,
      other: other ? JSON.stringify(other) : '',
    };
    await (manager ? manager.getRepository(LogEntry) : this.repo).insert(row);
  }
}
