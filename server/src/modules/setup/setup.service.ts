import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, fail } from '../../common/app-error';
import { nowSeconds } from '../../common/time';
import { Role, Setup, User } from '../../database/entities';
import { OptionService } from '../option';
import { UserService } from '../user';
import { version } from '../../version';

export interface SetupInput {
  username?: unknown;
  password?: unknown;
  confirmPassword?: unknown;
  SelfUseModeEnabled?: unknown;
  DemoSiteEnabled?: unknown;
}

export const ROOT_INITIAL_QUOTA = 100_000_000;

/** The first-run wizard: creates root once and records the usage mode; afterwards it refuses. */
@Injectable()
export class SetupService {
  private done = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
    private readonly users: UserService,
  ) {}

  async isDone(): Promise<boolean> {
    if (this.done) return true;
    this.done = (await this.ds.getRepository(Setup).count()) > 0;
    return this.done;
  }

  async status(): Promise<{ status: boolean; root_init: boolean; database_type: string }> {
    const rootInit = (await this.ds.getRepository(User).countBy({ role: Role.Root })) > 0;
    const type = this.ds.options.type;
    return {
      status: await this.isDone(),
      root_init: rootInit,
      database_type: type === 'better-sqlite3' ? 'sqlite' : type === 'postgres' ? 'postgres' : 'mysql',
    };
  }

  async run(input: SetupInput): Promise<void> {
    if (await this.isDone()) throw fail('setup_done');
    const rootInit = (await this.status()).root_init;
    const selfUse = input.SelfUseModeEnabled === true || input.SelfUseModeEnabled === 'true';
    const demo = input.DemoSiteEnabled === true || input.DemoSiteEnabled === 'true';
    let rootUser: { username: string; password: string } | null = null;
    if (!rootInit) {
      const username = typeof input.username === 'string' ? input.username.trim() : '';
      const password = typeof input.password === 'string' ? input.password : '';
      if (!username) throw fail('setup_username_required');
      if ([...username].length > 12) throw fail('username_too_long');
      if (password.length < 8) throw fail('setup_password_short');
      if (password.length > 20) throw fail('password_too_long');
      if (input.confirmPassword !== password) throw fail('setup_password_mismatch');
      rootUser = { username, password };
    }
    const passwordHash = rootUser ? await this.users.hashPassword(rootUser.password) : '';
    try {
      await this.ds.transaction(async (m) => {
        // The unique `singleton` column makes a second, concurrent setup fail here.
        await m.insert(Setup, { singleton: 1, version, initialized_at: nowSeconds() });
        if (rootUser) {
          await this.users.insertUser(m, {
            username: rootUser.username,
            passwordHash,
            role: Role.Root,
            quota: ROOT_INITIAL_QUOTA,
          });
        }
      });
    } catch (e) {
      if (e instanceof AppError) throw e;
      if (await this.refreshDone()) throw fail('setup_done');
      throw e;
    }
    this.done = true;
    await this.options.set('SelfUseModeEnabled', String(selfUse));
    await this.options.set('DemoSiteEnabled', String(demo));
  }

  private async refreshDone(): Promise<boolean> {
    this.done = false;
    return this.isDone();
  }
}
