import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, BoolColumn, LongTextColumn } from '../columns';

/**
 * One administrative change: who did what to which object, from where, and which non-secret fields
 * changed (from → to). Written by the management-log interceptor; the API only reads it (no update, no delete).
 */
@Entity('audit_logs')
export class AuditEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: number;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  @Column({ name: 'actor_id', type: 'int', default: 0 }) actor_id!: number;
  @Column({ name: 'actor_name', type: 'varchar', length: 64, default: '' }) actor_name!: string;
  @Column({ name: 'actor_role', type: 'int', default: 0 }) actor_role!: number;
  /** e.g. `user.update`, `channel.delete`, `option.update`. */
  @Column({ type: 'varchar', length: 64 }) action!: string;
  /** user, channel, option, redemption, topup, … */
  @Column({ name: 'target_type', type: 'varchar', length: 32, default: '' }) target_type!: string;
  /** The target's id (an option's key); empty for bulk actions. */
  @Column({ name: 'target_id', type: 'varchar', length: 128, default: '' }) target_id!: string;
  @Column({ name: 'target_name', type: 'varchar', length: 128, default: '' }) target_name!: string;
  @Column({ type: 'varchar', length: 64, default: '' }) ip!: string;
  /** JSON: {field: {from, to}}; secret fields as {secret: true} without values. */
  @LongTextColumn() changes!: string | null;
  /** A short human summary (counts of bulk actions and the like). */
  @Column({ type: 'varchar', length: 255, default: '' }) summary!: string;
  @Column({ name: 'request_id', type: 'varchar', length: 64, default: '' }) request_id!: string;
  @Column({ name: 'node_name', type: 'varchar', length: 64, default: '' }) node_name!: string;
}

/** A user's TOTP second factor. The secret is encrypted with CRYPTO_SECRET; recovery codes are hashed. */
@Entity('user_totp')
export class UserTotp {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id', type: 'int' }) user_id!: number;
  @Column({ name: 'secret_enc', type: 'text' }) secret_enc!: string;
  /** False while enrolment waits for the first code. */
  @BoolColumn() enabled!: boolean;
  /** JSON array of keyed hashes of the unused recovery codes. */
  @LongTextColumn({ name: 'recovery_codes' }) recovery_codes!: string | null;
  /** The last 30-second step whose code was accepted: a code is never accepted twice. */
  @BigIntColumn({ name: 'last_step' }) last_step!: number;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
}

/** A WebAuthn credential (passkey) of a user. */
@Entity('passkeys')
export class Passkey {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id', type: 'int' }) user_id!: number;
  /** base64url credential id. */
  @Column({ name: 'credential_id', type: 'varchar', length: 512 }) credential_id!: string;
  /** base64url COSE public key. */
  @Column({ name: 'public_key', type: 'text' }) public_key!: string;
  @BigIntColumn() counter!: number;
  @Column({ type: 'varchar', length: 255, default: '' }) transports!: string;
  @Column({ type: 'varchar', length: 64, default: '' }) name!: string;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  @BigIntColumn({ name: 'last_used_at' }) last_used_at!: number;
}

/**
 * Second-factor failures of one account (`user:<id>`) or one waiting sign-in (`signin:<nonce>`), shared
 * by every node through the database. An attempt is counted before its code is checked (a conditional
 * increment), so parallel guesses cannot run past the limit; a success sets the account's count back.
 */
@Entity('second_factor_failures')
export class SecondFactorFailure {
  @PrimaryColumn({ type: 'varchar', length: 64 }) scope!: string;
  /** Attempts counted in the current window that have not succeeded. */
  @Column({ type: 'int', default: 0 }) failures!: number;
  /** Unix seconds: the window of the count started then (an hour long). */
  @BigIntColumn({ name: 'window_start' }) window_start!: number;
  /** Unix seconds: no attempt before then (the growing delay after a few failures). */
  @BigIntColumn({ name: 'next_at' }) next_at!: number;
  /** Unix seconds: the second step is locked until then (0: not locked). */
  @BigIntColumn({ name: 'locked_until' }) locked_until!: number;
  /** Unix seconds: the row means nothing after then and may be removed. */
  @BigIntColumn({ name: 'expires_at' }) expires_at!: number;
}

/**
 * A passkey challenge issued and not yet used: the ceremony that answers it deletes the row (one
 * conditional DELETE), so a challenge serves once on every node, whatever the verification's outcome.
 * The browser's cookie only names it.
 */
@Entity('passkey_challenges')
export class PasskeyChallenge {
  /** SHA-256 (hex) of the challenge. */
  @PrimaryColumn({ name: 'challenge_hash', type: 'varchar', length: 64 }) challenge_hash!: string;
  /** reg, auth or step. */
  @Column({ type: 'varchar', length: 8 }) purpose!: string;
  /** The user it was issued for (0: a sign-in without a password). */
  @Column({ name: 'user_id', type: 'int', default: 0 }) user_id!: number;
  @BigIntColumn({ name: 'expires_at' }) expires_at!: number;
}
