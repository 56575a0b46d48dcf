import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { ROLES } from '../../shared/roles';
import { emailPolicy } from './email.policy';

describe('emailPolicy', () => {
  it('lets only an admin send mass e-mail and read campaigns', () => {
    expect(() => emailPolicy.assertMaySend({ role: 'admin' })).not.toThrow();
    expect(() => emailPolicy.assertMayReadCampaigns({ role: 'admin' })).not.toThrow();
    const refused = expect.objectContaining({ statusCode: 403, message: MSG.forbidden });
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      expect(() => emailPolicy.assertMaySend({ role })).toThrow(refused);
      expect(() => emailPolicy.assertMayReadCampaigns({ role })).toThrow(refused);
    }
  });
});
