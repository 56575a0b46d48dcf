import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { ROLES } from '../../shared/roles';
import { playersPolicy } from './players.policy';

describe('playersPolicy', () => {
  const checks = [playersPolicy.assertCanView, playersPolicy.assertCanEdit];

  it('lets a user read and edit their own profile, whatever their role', () => {
    for (const check of checks) {
      for (const role of ROLES) expect(() => check({ id: 5, role }, 5)).not.toThrow();
    }
  });

  it('lets an admin read and edit any profile', () => {
    for (const check of checks) expect(() => check({ id: 1, role: 'admin' }, 5)).not.toThrow();
  });

  it("refuses everyone else another user's profile with 403", () => {
    for (const check of checks) {
      for (const role of ROLES.filter((r) => r !== 'admin')) {
        expect(() => check({ id: 6, role }, 5)).toThrow(expect.objectContaining({ statusCode: 403, message: MSG.forbidden }));
      }
    }
  });
});
