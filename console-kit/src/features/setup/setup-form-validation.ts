import type { SetupPayload } from '../../api/api-types';

export type UsageMode = 'external' | 'self' | 'demo';

export interface SetupFormValues {
  username: string;
  password: string;
  confirmPassword: string;
  usageMode: UsageMode;
}

export type SetupField = 'username' | 'password' | 'confirmPassword';

export interface SetupValidationError {
  field: SetupField;
  /** Key in the setup namespace. */
  messageKey: `validation.${'usernameRequired' | 'usernameTooLong' | 'passwordTooShort' | 'passwordMismatch'}`;
}

export const MIN_PASSWORD_LENGTH = 8;
/** The server's limit on user names (characters, not bytes). */
export const MAX_USERNAME_LENGTH = 12;

/**
 * Every problem of the form at once, one per field, in the spec's order; nothing is checked about the
 * account once root exists (the wizard then sends the usage mode alone).
 */
export function setupFormErrors(values: SetupFormValues, rootInitialized: boolean): SetupValidationError[] {
  if (rootInitialized) {
    return [];
  }
  const errors: SetupValidationError[] = [];
  const username = values.username.trim();
  if (username === '') {
    errors.push({ field: 'username', messageKey: 'validation.usernameRequired' });
  } else if ([...username].length > MAX_USERNAME_LENGTH) {
    errors.push({ field: 'username', messageKey: 'validation.usernameTooLong' });
  }
  if (values.password.length < MIN_PASSWORD_LENGTH) {
    errors.push({ field: 'password', messageKey: 'validation.passwordTooShort' });
  }
  if (values.confirmPassword !== values.password) {
    errors.push({ field: 'confirmPassword', messageKey: 'validation.passwordMismatch' });
  }
  return errors;
}

/** The first problem of the form (see {@link setupFormErrors}), or null. */
export function validateSetupForm(
  values: SetupFormValues,
  rootInitialized: boolean,
): SetupValidationError | null {
  return setupFormErrors(values, rootInitialized)[0] ?? null;
}

export function toSetupPayload(values: SetupFormValues, rootInitialized: boolean): SetupPayload {
  return {
    username: rootInitialized ? '' : values.username.trim(),
    password: rootInitialized ? '' : values.password,
    confirmPassword: rootInitialized ? '' : values.confirmPassword,
    SelfUseModeEnabled: values.usageMode === 'self',
    DemoSiteEnabled: values.usageMode === 'demo',
  };
}
