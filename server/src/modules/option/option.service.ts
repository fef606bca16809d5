import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppError, fail, forbidden } from '../../common/app-error';
import { CacheBus } from '../../common/cache-bus';
import { CryptoService } from '../../common/crypto.service';
import { setDefaultLang } from '../../common/i18n/messages';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { OptionRow, Role } from '../../database/entities';
import {
  BoolOptionKey,
  JsonOptionKey,
  JsonOptionValue,
  NumberOptionKey,
  OPTION_DEFINITIONS,
  OptionKey,
  OPTION_INDEX,
  OptionDef,
  parseOptionValue,
  PRICE_KEYS,
  validateOptionValue,
} from './option-definitions';

export interface OptionListItem {
  key: string;
  value: string;
  root_only?: true;
}

/**
 * Runtime settings. Reads come from memory (the relay reads prices and switches on every request);
 * a write validates, stores (secrets encrypted), updates this node at once and tells the others.
 */
@Injectable()
export class OptionService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Options');
  private readonly raw = new Map<string, string>();
  private readonly parsed = new Map<string, unknown>();
  private resync?: NodeJS.Timeout;
  private revisions = 0;

  constructor(
    @InjectRepository(OptionRow) private readonly repo: Repository<OptionRow>,
    private readonly crypto: CryptoService,
    private readonly bus: CacheBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    for (const def of OPTION_DEFINITIONS) this.put(def, def.default);
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    this.bus.on(
      'options',
      (e) => e.remote && void this.reload().catch((e: unknown) => this.logger.error(String(e))),
    );
    this.resync = setInterval(
      () => void this.reload().catch((e: unknown) => this.logger.warn(`resync failed: ${String(e)}`)),
      Math.max(1, this.config.syncFrequencySeconds) * 1000,
    ).unref();
  }

  onModuleDestroy(): void {
    if (this.resync) clearInterval(this.resync);
  }

  async reload(): Promise<void> {
    const rows = await this.repo.find();
    const seen = new Set<string>();
    for (const row of rows) {
      const def = OPTION_INDEX.get(row.key);
      if (!def || row.value === null) continue;
      try {
        this.put(def, def.secret ? this.crypto.decrypt(row.value) : row.value);
        seen.add(def.key);
      } catch {
        this.logger.warn(
          `option ${row.key} cannot be decrypted with the current CRYPTO_SECRET; using the default`,
        );
      }
    }
    for (const def of OPTION_DEFINITIONS) if (!seen.has(def.key)) this.put(def, def.default);
  }

  private put(def: OptionDef, value: string): void {
    this.raw.set(def.key, value);
    this.parsed.set(def.key, parseOptionValue(def, value));
    this.revisions++;
    // Read on every request before any module is reached, so it lives with the language picker.
    if (def.key === 'DefaultLanguage') setDefaultLang(value === 'en' ? 'en' : 'zh');
  }

  /** Counts every value stored in memory: what was derived from the options at one count is current. */
  get revision(): number {
    return this.revisions;
  }

  /** The stored text of any option (its definition's default until set). */
  get(key: OptionKey): string {
    return this.raw.get(key) ?? '';
  }

  bool(key: BoolOptionKey): boolean {
    return this.parsed.get(key) === true;
  }

  num(key: NumberOptionKey): number {
    const v = this.parsed.get(key);
    return typeof v === 'number' && Number.isFinite(v) ? v : 0;
  }

  /** The parsed value of a JSON option; its shape was checked by the definition before it was stored. */
  json<K extends JsonOptionKey>(key: K): JsonOptionValue<K> {
    return this.parsed.get(key) as JsonOptionValue<K>;
  }

  /** Every option an admin may see; secrets never appear, root-only keys are marked read-only for admins. */
  list(role: number): OptionListItem[] {
    return OPTION_DEFINITIONS.filter((d) => !d.secret).map((d) => {
      const item: OptionListItem = { key: d.key, value: this.get(d.key) };
      if (d.rootOnly && role < Role.Root) item.root_only = true;
      return item;
    });
  }

  /** An admin's change of one key. An empty value leaves a secret unchanged unless `clear` is set. */
  async update(key: string, value: unknown, role: number, clear = false): Promise<void> {
    const def = OPTION_INDEX.get(key);
    if (!def) throw fail('option_unknown', { key });
    if (def.rootOnly && role < Role.Root) throw forbidden('root_only');
    if (
      typeof value !== 'string' &&
      typeof value !== 'number' &&
      typeof value !== 'boolean' &&
      value !== null &&
      value !== undefined
    ) {
      throw fail('option_invalid', { key, reason: 'must be text' });
    }
    const input = value === null || value === undefined ? '' : String(value);
    if (def.secret && input === '' && !clear) return;
    if (key === 'PayAddress' && input !== '' && !this.get('ServerAddress'))
      throw fail('server_address_required');
    const result = validateOptionValue(def, input);
    if ('problem' in result) throw new AppError(result.problem.key, result.problem.params);
    await this.store(def, result.value);
  }

  /** Internal writes (setup wizard, resets): validated against the definition, no role checks. */
  async set(key: string, value: string): Promise<void> {
    const def = OPTION_INDEX.get(key);
    if (!def) throw new Error(`unknown option ${key}`);
    const result = validateOptionValue(def, value);
    if ('problem' in result) throw new AppError(result.problem.key, result.problem.params);
    await this.store(def, result.value);
  }

  async resetPrices(): Promise<void> {
    for (const key of PRICE_KEYS) await this.store(OPTION_INDEX.get(key)!, OPTION_INDEX.get(key)!.default);
  }

  private async store(def: OptionDef, value: string): Promise<void> {
    const stored = def.secret && value !== '' ? this.crypto.encrypt(value) : value;
    await this.repo.upsert({ key: def.key, value: stored }, ['key']);
    this.put(def, value);
    this.bus.publish('options', [def.key]);
  }
}
