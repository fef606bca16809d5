import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { fail } from '../../common/app-error';
import { Ability } from '../../database/entities';
import { priceOf, priceTablesFrom } from '../billing';
import { OptionService } from '../option';
import { UserCacheService } from './user-cache.service';

export class GroupInfo {
  @ApiProperty({ type: Number, nullable: true }) ratio!: number | null;
  @ApiProperty() desc!: string;
}

/** Which groups a user may pick for tokens, and which models those groups reach. */
@Injectable()
export class UserGroupsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
    private readonly cache: UserCacheService,
  ) {}

  /** The groups in GroupRatio (the admin's group list). */
  allGroups(): string[] {
    return Object.keys(this.options.json('GroupRatio'));
  }

  /** UserUsableGroups plus the user's own group; `auto` (ratio null) when offered. */
  usableGroups(userGroup: string): Record<string, GroupInfo> {
    const ratios = this.options.json('GroupRatio');
    const usable = this.options.json('UserUsableGroups');
    const out: Record<string, GroupInfo> = {};
    const autoOffered = 'auto' in usable || this.options.bool('DefaultUseAutoGroup');
    if (autoOffered) out.auto = { ratio: null, desc: usable.auto ?? '自动选择 / auto' };
    for (const [name, desc] of Object.entries(usable)) {
      if (name === 'auto') continue;
      out[name] = { ratio: ratios[name] ?? 1, desc };
    }
    if (!(userGroup in out)) out[userGroup] = { ratio: ratios[userGroup] ?? 1, desc: userGroup };
    return out;
  }

  /** Model names served by enabled channels in the user's usable groups, or in one of them. */
  async models(userGroup: string, only?: string): Promise<string[]> {
    const usable = this.usableGroups(userGroup);
    let groups: string[];
    if (only) {
      if (!(only in usable)) throw fail('group_invalid');
      groups = only === 'auto' ? this.options.json('AutoGroups') : [only];
    } else {
      groups = Object.keys(usable).filter((g) => g !== 'auto');
      if ('auto' in usable) groups.push(...this.options.json('AutoGroups'));
    }
    if (!groups.length) return [];
    const rows = await this.ds
      .getRepository(Ability)
      .createQueryBuilder('a')
      .select('DISTINCT a.model', 'model')
      .where('a.group IN (:...groups)', { groups: [...new Set(groups)] })
      .andWhere('a.enabled = :enabled', { enabled: true })
      .getRawMany<{ model: string }>();
    return rows.map((r) => r.model).sort();
  }

  /**
   * The models a user can actually call: those of {@link models} the relay can price (its own
   * lookup), or all of them in self-use mode or for a user who accepts unpriced models. The pricing
   * page, the playground and the personal page then list the same models.
   */
  async callableModels(user: { id: number; group: string }, only?: string): Promise<string[]> {
    const models = await this.models(user.group, only);
    if (this.options.bool('SelfUseModeEnabled')) return models;
    if ((await this.cache.get(user.id))?.acceptUnsetModel) return models;
    const tables = priceTablesFrom(this.options);
    return models.filter((model) => priceOf(tables, model, user.group, user.group) !== null);
  }
}
