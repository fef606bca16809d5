/** docs/decisions.md#account-field-limits: username ≤ 12, password 8 to 20. */
export const USERNAME_MAX_LENGTH = 12;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;

export interface RegisterFormValues {
  username: string;
  password: string;
  password2: string;
  email: string;
  verificationCode: string;
}

export type RegisterField = keyof RegisterFormValues;

export type RegisterMessageKey =
  | 'validation.required'
  | 'validation.usernameTooLong'
  | 'validation.passwordTooShort'
  | 'validation.passwordTooLong'
  | 'validation.passwordMismatch'
  | 'validation.emailRequired'
  | 'validation.emailInvalid'
  | 'validation.codeRequired';

export interface RegisterValidationError {
  field: RegisterField;
  messageKey: RegisterMessageKey;
}

/** A light check of an address: the server decides (domain whitelist, aliases). */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** The first problem in the spec's order, or null. `emailVerification` adds address and code. */
export function validateRegisterForm(
  values: RegisterFormValues,
  emailVerification: boolean,
): RegisterValidationError | null {
  if (values.username.trim() === '') {
    return { field: 'username', messageKey: 'validation.required' };
  }
  if (values.password === '') {
    return { field: 'password', messageKey: 'validation.required' };
  }
  if ([...values.username.trim()].length > USERNAME_MAX_LENGTH) {
    return { field: 'username', messageKey: 'validation.usernameTooLong' };
  }
  if (values.password.length < PASSWORD_MIN_LENGTH) {
    return { field: 'password', messageKey: 'validation.passwordTooShort' };
  }
  if (values.password.length > PASSWORD_MAX_LENGTH) {
    return { field: 'password', messageKey: 'validation.passwordTooLong' };
  }
  if (values.password2 !== values.password) {
    return { field: 'password2', messageKey: 'validation.passwordMismatch' };
  }
  if (emailVerification) {
    if (values.email.trim() === '') {
      return { field: 'email', messageKey: 'validation.emailRequired' };
    }
    if (!looksLikeEmail(values.email)) {
      return { field: 'email', messageKey: 'validation.emailInvalid' };
    }
    if (values.verificationCode.trim() === '') {
      return { field: 'verificationCode', messageKey: 'validation.codeRequired' };
    }
  }
  return null;
}

/** `POST /api/user/register` body (wire names). */
export function toRegisterPayload(
  values: RegisterFormValues,
  emailVerification: boolean,
  affCode: string | null,
) {
  return {
    username: values.username.trim(),
    password: values.password,
    password2: values.password2,
    ...(emailVerification
      ? { email: values.email.trim(), verification_code: values.verificationCode.trim() }
      : {}),
    ...(affCode ? { aff_code: affCode } : {}),
  };
}
