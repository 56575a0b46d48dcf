import type { UserRow } from '../../db/schema';
import type { Testimonial } from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { conflict, isUniqueViolation } from '../../errors';
import { toApiId } from '../../lib/ids';
import { testimonialsPolicy } from '../../policies/testimonials.policy';
import type { TestimonialsRepository } from './testimonials.repository';

/** Owner testimonials: one each, 1 to 300 characters after trimming. */
export function testimonialsService({ repository }: { repository: TestimonialsRepository }) {
  const list = async (ownerId?: number): Promise<Testimonial[]> => {
    const rows = await repository.listVisible(ownerId);
    const serverIds = rows.map((r) => r.serverId).filter((id): id is number => typeof id === 'number');
    const servers = serverIds.length ? await repository.findServers(serverIds) : [];
    const byId = new Map(servers.map((s) => [s.id, s]));
    return rows.map((row) => {
      const server = row.serverId ? byId.get(row.serverId) : undefined;
      return {
        serverId: server ? toApiId(server.id) : null,
        serverName: server?.name ?? null,
        serverPicture: server?.profilePicture ?? null,
        testimonial: row.content,
        ownerName: row.displayName || row.username,
        createdAt: row.createdAt.toISOString(),
      };
    });
  };

  return {
    /** The visible testimonials, newest first. */
    list: () => list(),

    /** Posts the owner's one testimonial and answers it as listed; a second one is a 409. */
    async post(owner: UserRow, content: string): Promise<Testimonial> {
      testimonialsPolicy.assertCanPost(owner);
      try {
        await repository.insert(owner.id, content);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(MSG.testimonialExists);
        throw error;
      }
      const [mine] = await list(owner.id);
      return mine!;
    },
  };
}

/** Listing and posting testimonials. */
export type TestimonialsService = ReturnType<typeof testimonialsService>;
