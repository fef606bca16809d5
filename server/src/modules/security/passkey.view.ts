import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** WebAuthn hints and extension inputs: their keys are the WebAuthn specification's. */
const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

/** The relying party (this site) a passkey belongs to. */
export class PasskeyRp {
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ description: 'the host name passkeys are bound to' }) id?: string;
}

/** The account a new passkey is created for (`id` base64url). */
export class PasskeyUserEntity {
  @ApiProperty({ description: 'base64url user handle' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() displayName!: string;
}

/** A public-key algorithm the site accepts (COSE identifier). */
export class PasskeyCredentialParameters {
  @ApiProperty({ type: 'integer', example: -7 }) alg!: number;
  @ApiProperty({ enum: ['public-key'] }) type!: string;
}

/** A stored passkey named to the browser (`id` base64url). */
export class PasskeyDescriptor {
  @ApiProperty({ description: 'base64url credential id' }) id!: string;
  @ApiPropertyOptional({ enum: ['public-key'] }) type?: string;
  @ApiPropertyOptional({ type: [String], example: ['internal', 'hybrid'] }) transports?: string[];
}

/** WebAuthn PublicKeyCredentialCreationOptionsJSON: what navigator.credentials.create needs. */
export class PasskeyCreationOptions {
  @ApiProperty({ type: PasskeyRp }) rp!: PasskeyRp;
  @ApiProperty({ type: PasskeyUserEntity }) user!: PasskeyUserEntity;
  @ApiProperty({ description: 'base64url challenge' }) challenge!: string;
  @ApiProperty({ type: [PasskeyCredentialParameters] }) pubKeyCredParams!: PasskeyCredentialParameters[];
  @ApiPropertyOptional({ type: 'integer', description: 'milliseconds' }) timeout?: number;
  @ApiPropertyOptional({ type: [PasskeyDescriptor], description: "the user's passkeys (not created twice)" })
  excludeCredentials?: PasskeyDescriptor[];
  @ApiPropertyOptional({
    ...OPEN_OBJECT,
    description: 'residentKey, userVerification, authenticatorAttachment',
  })
  authenticatorSelection?: Record<string, unknown>;
  @ApiPropertyOptional({ type: [String] }) hints?: string[];
  @ApiPropertyOptional({ example: 'none' }) attestation?: string;
  @ApiPropertyOptional({ type: [String] }) attestationFormats?: string[];
  @ApiPropertyOptional({ ...OPEN_OBJECT }) extensions?: Record<string, unknown>;
}

/** WebAuthn PublicKeyCredentialRequestOptionsJSON: what navigator.credentials.get needs. */
export class PasskeyRequestOptions {
  @ApiProperty({ description: 'base64url challenge' }) challenge!: string;
  @ApiPropertyOptional({ type: 'integer', description: 'milliseconds' }) timeout?: number;
  @ApiPropertyOptional() rpId?: string;
  @ApiPropertyOptional({
    type: [PasskeyDescriptor],
    description: "the passkeys that may answer (empty: any of the site's discoverable passkeys)",
  })
  allowCredentials?: PasskeyDescriptor[];
  @ApiPropertyOptional({ enum: ['required', 'preferred', 'discouraged'] }) userVerification?: string;
  @ApiPropertyOptional({ type: [String] }) hints?: string[];
  @ApiPropertyOptional({ ...OPEN_OBJECT }) extensions?: Record<string, unknown>;
}
