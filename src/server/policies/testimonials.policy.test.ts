import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { ROLES } from '../../shared/roles';
import { testimonialsPolicy } from './testimonials.policy';

describe('testimonialsPolicy', () => {
  it('lets server owners post', () => {
    expect(() => testimonialsPolicy.assertCanPost({ role: 'server_owner' })).not.toThrow();
  });

  it('refuses every other role with "only owners"', () => {
    for (const role of ROLES.filter((r) => r !== 'server_owner')) {
      expect(() => testimonialsPolicy.assertCanPost({ role })).toThrow(
        expect.objectContaining({ statusCode: 403, message: MSG.onlyOwnersTestimonial }),
      );
    }
  });
});
