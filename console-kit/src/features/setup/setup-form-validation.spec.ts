import { describe, expect, it } from 'vitest';
import {
  setupFormErrors,
  toSetupPayload,
  validateSetupForm,
  type SetupFormValues,
} from './setup-form-validation';

const valid: SetupFormValues = {
  username: 'admin',
  password: 'long-enough',
  confirmPassword: 'long-enough',
  usageMode: 'external',
};

describe('setup form validation', () => {
  it('asks for a username that is not blank', () => {
    expect(validateSetupForm({ ...valid, username: '   ' }, false)).toEqual({
      field: 'username',
      messageKey: 'validation.usernameRequired',
    });
  });

  it('asks for a password of at least 8 characters', () => {
    expect(validateSetupForm({ ...valid, password: '1234567', confirmPassword: '1234567' }, false)).toEqual({
      field: 'password',
      messageKey: 'validation.passwordTooShort',
    });
    expect(
      validateSetupForm({ ...valid, password: '12345678', confirmPassword: '12345678' }, false),
    ).toBeNull();
  });

  it('asks for a confirmation equal to the password', () => {
    expect(validateSetupForm({ ...valid, confirmPassword: 'long-enougH' }, false)).toEqual({
      field: 'confirmPassword',
      messageKey: 'validation.passwordMismatch',
    });
  });

  it('reports every problem at once, and a name longer than 12 characters', () => {
    expect(
      setupFormErrors(
        { ...valid, username: 'thirteen-char', password: 'short', confirmPassword: '' },
        false,
      ).map((error) => error.messageKey),
    ).toEqual(['validation.usernameTooLong', 'validation.passwordTooShort', 'validation.passwordMismatch']);
    expect(setupFormErrors({ ...valid, username: '十二个字的名字十二个字的名' }, false)).toHaveLength(1);
    expect(setupFormErrors({ ...valid, username: '十二个字的名字十二个字的' }, false)).toEqual([]);
  });

  it('checks nothing about the account once root exists', () => {
    expect(validateSetupForm({ ...valid, username: '', password: '' }, true)).toBeNull();
  });

  it('maps the usage mode to the two wire flags and sends no account once root exists', () => {
    expect(toSetupPayload({ ...valid, username: ' admin ', usageMode: 'self' }, false)).toEqual({
      username: 'admin',
      password: 'long-enough',
      confirmPassword: 'long-enough',
      SelfUseModeEnabled: true,
      DemoSiteEnabled: false,
    });
    expect(toSetupPayload({ ...valid, usageMode: 'demo' }, true)).toEqual({
      username: '',
      password: '',
      confirmPassword: '',
      SelfUseModeEnabled: false,
      DemoSiteEnabled: true,
    });
  });
});
