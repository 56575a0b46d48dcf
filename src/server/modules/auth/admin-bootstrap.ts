import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { usersRepository } from '../users/users.repository';
import { hashPassword, verifyPassword } from './password';

/**
 * Creates, or resets, the admin named by ADMIN_USERNAME / ADMIN_PASSWORD / ADMIN_EMAIL: the only
 * way to get an admin (decisions §2). A restart with the same password keeps existing sessions.
 */
export async function ensureAdmin(
  db: Kysely<Database>,
  admin: { username: string; password: string; email: string | undefined },
): Promise<void> {
  const users = usersRepository(db);
  const existing = await users.findByUsername(admin.username);
  if (!existing) {
    await users.create({
      username: admin.username,
      passwordHash: await hashPassword(admin.password),
      role: 'admin',
      email: admin.email ?? null,
      profilePicture: null,
      stripeCustomerId: null,
    });
    return;
  }
  if (!(await verifyPassword(existing.passwordHash, admin.password))) {
    await users.setPassword(existing.id, await hashPassword(admin.password));
  }
  await db
    .updateTable('users')
    .set({ role: 'admin', ...(admin.email ? { email: admin.email } : {}), updatedAt: new Date() })
    .where('id', '=', existing.id)
    .execute();
}
