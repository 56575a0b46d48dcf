import { inspect } from 'node:util';
import { authPolicy } from '../../policies/auth.policy';
import type { UsersRepository } from '../users';
import { hashPassword, verifyPassword } from './password';

/**
 * Start-up refused because ADMIN_USERNAME names an account that is not an admin. Printed as its
 * message alone (no stack): it is an operator's problem to fix, not a crash.
 */
export class AdminBootstrapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminBootstrapError';
  }

  [inspect.custom](): string {
    return this.message;
  }
}

/**
 * Creates, or resets, the admin named by ADMIN_USERNAME / ADMIN_PASSWORD / ADMIN_EMAIL: the only
 * way to get an admin. It never promotes an account it did not create: admins come only from here,
 * so an existing non-admin of that name was registered by someone else, and start-up stops.
 * A restart with the same password keeps existing sessions.
 */
export async function ensureAdmin(
  users: UsersRepository,
  admin: { username: string; password: string; email: string | undefined },
): Promise<void> {
  const existing = await users.findByUsername(admin.username);
  if (!existing) {
    await users.create({
      username: admin.username,
      passwordHash: await hashPassword(admin.password),
      role: 'admin',
      email: admin.email ?? null,
      // The operator's own address, from the environment: nobody else could have typed it.
      emailConfirmedAt: admin.email ? new Date() : null,
      profilePicture: null,
      stripeCustomerId: null,
    });
    return;
  }
  if (!authPolicy.mayBootstrapAdminOver(existing)) {
    throw new AdminBootstrapError(
      `Refusing to start: ADMIN_USERNAME "${admin.username}" is already taken by a ${existing.role} account that this server did not create. ` +
        'Choose another ADMIN_USERNAME, or delete or rename that account first.',
    );
  }
  if (!(await verifyPassword(existing.passwordHash, admin.password))) {
    await users.setPassword(existing.id, await hashPassword(admin.password));
  }
  // The address comes from the environment or nowhere: a reset must not keep one someone else set.
  await users.setEmail(existing.id, admin.email ?? null);
}
