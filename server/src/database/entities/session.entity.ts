import { Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumn } from '../columns';

/**
 * Sessions ended by a logout before their cookie expires. Every node keeps them in memory (checked on
 * each request without a round trip); the table lets a restarted or newly started node know them too.
 */
@Entity('session_revocations')
export class SessionRevocation {
  @PrimaryColumn({ type: 'varchar', length: 32 }) sid!: string;
  /** Unix seconds when the cookie would have expired anyway: the row can go after that. */
  @BigIntColumn({ name: 'expires_at' }) expires_at!: number;
  /** Unix milliseconds of the logout: nodes read the rows added since they last looked. */
  @BigIntColumn({ name: 'revoked_at' }) revoked_at!: number;
}
