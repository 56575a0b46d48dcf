import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { ROLES } from '../../shared/roles';
import { moderationPolicy } from './moderation.policy';

describe('moderationPolicy', () => {
  it('lets only an admin see and resolve the report queue', () => {
    expect(() => moderationPolicy.assertCanModerate({ role: 'admin' })).not.toThrow();
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      expect(() => moderationPolicy.assertCanModerate({ role })).toThrow(
        expect.objectContaining({ statusCode: 403, message: MSG.forbidden }),
      );
    }
  });
});
