import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { ROLES } from '../../shared/roles';
import { adminPolicy } from './admin.policy';

describe('adminPolicy', () => {
  it('lets only an admin through, whatever other role asks', () => {
    expect(() => adminPolicy.assertIsAdmin({ role: 'admin' })).not.toThrow();
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      expect(() => adminPolicy.assertIsAdmin({ role })).toThrow(expect.objectContaining({ statusCode: 403, message: MSG.forbidden }));
      expect(adminPolicy.isAdmin({ role })).toBe(false);
    }
    expect(adminPolicy.isAdmin({ role: 'admin' })).toBe(true);
    expect(adminPolicy.isAdmin(undefined)).toBe(false);
  });
});
