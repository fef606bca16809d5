import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/** Whether this browser has WebAuthn (passkeys) at all. */
export function browserSupportsWebAuthn(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/**
 * Asks the browser for a passkey assertion. The WebAuthn client code is fetched on first use, so the
 * sign-in page does not carry it for the many who never use a passkey.
 */
export async function startAuthentication(args: {
  optionsJSON: PublicKeyCredentialRequestOptionsJSON;
}): Promise<AuthenticationResponseJSON> {
  const webauthn = await import('@simplewebauthn/browser');
  return webauthn.startAuthentication(args);
}
