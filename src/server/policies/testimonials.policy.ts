import type { UserRow } from '../db/schema';
import { MSG } from '../../shared/messages';
import { forbidden } from '../errors';

/** Who may post a testimonial: server owners (one each; the database keeps it to one). */
export const testimonialsPolicy = {
  /** Players and admins get 403 with "only owners". */
  assertCanPost(actor: Pick<UserRow, 'role'>): void {
    if (actor.role !== 'server_owner') throw forbidden(MSG.onlyOwnersTestimonial);
  },
};
