import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { REGISTRABLE_ROLES, ROLES } from '../../shared/roles';
import { authPolicy } from './auth.policy';

const refusal = (message: string) => expect.objectContaining({ statusCode: 400, message });

describe('authPolicy', () => {
  it('lets registration choose player or server owner, never admin or anything else', () => {
    for (const role of REGISTRABLE_ROLES) expect(() => authPolicy.assertMayRegisterAs(role)).not.toThrow();
    for (const role of ['admin', 'moderator', 'ADMIN', 'Player', '']) {
      expect(() => authPolicy.assertMayRegisterAs(role)).toThrow(refusal(MSG.roleInvalid));
    }
  });

  it('lets the start-up admin reset only an account that is an admin already', () => {
    expect(authPolicy.mayBootstrapAdminOver({ role: 'admin' })).toBe(true);
    for (const role of ROLES.filter((r) => r !== 'admin')) expect(authPolicy.mayBootstrapAdminOver({ role })).toBe(false);
  });

  it('asks for the current password to change an address, not to set a first one', () => {
    expect(authPolicy.emailChangeProof({ email: null }, undefined)).toBeUndefined();
    expect(authPolicy.emailChangeProof({ email: null }, 'whatever-pw')).toBeUndefined();
    expect(authPolicy.emailChangeProof({ email: 'old@example.test' }, 'current-pw')).toBe('current-pw');
    expect(() => authPolicy.emailChangeProof({ email: 'old@example.test' }, undefined)).toThrow(refusal(MSG.allFieldsRequired));
    expect(() => authPolicy.emailChangeProof({ email: 'old@example.test' }, '')).toThrow(refusal(MSG.allFieldsRequired));
  });

  it('refuses a change made with a wrong current password', () => {
    expect(() => authPolicy.assertCurrentPassword(true)).not.toThrow();
    expect(() => authPolicy.assertCurrentPassword(false)).toThrow(refusal(MSG.currentPasswordWrong));
  });
});
