import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
} from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';

const ALPHANUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PREFIX = 'gcm1:';

/**
 * Secrets at rest: AES-256-GCM with a key derived from CRYPTO_SECRET; lookups of API keys and access
 * tokens by an HMAC so the database never holds them in the clear.
 */
@Injectable()
export class CryptoService {
  private readonly encKey: Buffer;
  private readonly macKey: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.encKey = createHash('sha256').update('gatehouse:enc:').update(config.cryptoSecret).digest();
    this.macKey = createHash('sha256').update('gatehouse:mac:').update(config.cryptoSecret).digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** Values written before encryption was configured are returned unchanged. */
  decrypt(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.encKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  keyedHash(value: string): string {
    return createHmac('sha256', this.macKey).update(value).digest('hex');
  }

  static randomString(length: number, alphabet = ALPHANUM): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
    return out;
  }

  static randomDigits(length: number): string {
    return CryptoService.randomString(length, '0123456789');
  }

  static sha256(value: string): string {
    return createHash('sha256').update(value).digest('hex');
  }
}
