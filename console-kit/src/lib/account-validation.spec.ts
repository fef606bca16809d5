import { describe, expect, it } from 'vitest';
import {
  looksLikeEmail,
  toRegisterPayload,
  validateRegisterForm,
  type RegisterFormValues,
} from './account-validation';

const valid: RegisterFormValues = {
  username: 'alice',
  password: 'long-enough',
  password2: 'long-enough',
  email: 'alice@example.com',
  verificationCode: '123456',
};

describe('validateRegisterForm', () => {
  it('accepts a complete form', () => {
    expect(validateRegisterForm(valid, true)).toBeNull();
    expect(validateRegisterForm({ ...valid, email: '', verificationCode: '' }, false)).toBeNull();
  });

  it('needs a username and a password', () => {
    expect(validateRegisterForm({ ...valid, username: '  ' }, false)).toEqual({
      field: 'username',
      messageKey: 'validation.required',
    });
    expect(validateRegisterForm({ ...valid, password: '', password2: '' }, false)?.messageKey).toBe(
      'validation.required',
    );
  });

  it('holds the password to 8 to 20 characters', () => {
    expect(validateRegisterForm({ ...valid, password: '1234567', password2: '1234567' }, false)).toEqual({
      field: 'password',
      messageKey: 'validation.passwordTooShort',
    });
    expect(validateRegisterForm({ ...valid, password: '12345678', password2: '12345678' }, false)).toBeNull();
    const long = 'x'.repeat(21);
    expect(validateRegisterForm({ ...valid, password: long, password2: long }, false)?.messageKey).toBe(
      'validation.passwordTooLong',
    );
  });

  it('counts a username by characters, not UTF-16 units', () => {
    expect(validateRegisterForm({ ...valid, username: '😀'.repeat(12) }, false)).toBeNull();
    expect(validateRegisterForm({ ...valid, username: 'a'.repeat(13) }, false)?.messageKey).toBe(
      'validation.usernameTooLong',
    );
  });

  it('asks for the same password twice', () => {
    expect(validateRegisterForm({ ...valid, password2: 'long-enougH' }, false)).toEqual({
      field: 'password2',
      messageKey: 'validation.passwordMismatch',
    });
  });

  it('asks for the address and the code only with email verification', () => {
    expect(validateRegisterForm({ ...valid, email: '' }, true)?.messageKey).toBe('validation.emailRequired');
    expect(validateRegisterForm({ ...valid, email: 'not-an-address' }, true)?.messageKey).toBe(
      'validation.emailInvalid',
    );
    expect(validateRegisterForm({ ...valid, verificationCode: ' ' }, true)?.messageKey).toBe(
      'validation.codeRequired',
    );
  });
});

describe('toRegisterPayload', () => {
  it('sends the wire names, the email pair only with verification, the invite code when known', () => {
    expect(toRegisterPayload({ ...valid, username: ' alice ' }, true, 'INV1')).toEqual({
      username: 'alice',
      password: 'long-enough',
      password2: 'long-enough',
      email: 'alice@example.com',
      verification_code: '123456',
      aff_code: 'INV1',
    });
    expect(toRegisterPayload(valid, false, null)).toEqual({
      username: 'alice',
      password: 'long-enough',
      password2: 'long-enough',
    });
  });
});

describe('looksLikeEmail', () => {
  it('wants one @ and a dotted domain', () => {
    expect(looksLikeEmail('a@b.co')).toBe(true);
    expect(looksLikeEmail('a@b')).toBe(false);
    expect(looksLikeEmail('a b@c.de')).toBe(false);
  });
});
