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
  messageKey: `validation.${'usernameRequired' | 'passwordTooShort' | 'passwordMismatch'}`;
}

export const MIN_PASSWORD_LENGTH = 8;

/**
 * The spec's rules, checked in its order and only while root is not initialised: once an admin exists
 * the wizard sends the usage mode alone.
 */
export function validateSetupForm(
  values: SetupFormValues,
  rootInitialized: boolean,
): SetupValidationError | null {
  if (rootInitialized) {
    return null;
  }
  if (values.username.trim() === '') {
    return { field: 'username', messageKey: 'validation.usernameRequired' };
  }
  if (values.password.length < MIN_PASSWORD_LENGTH) {
    return { field: 'password', messageKey: 'validation.passwordTooShort' };
  }
  if (values.confirmPassword !== values.password) {
    return { field: 'confirmPassword', messageKey: 'validation.passwordMismatch' };
  }
  return null;
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
