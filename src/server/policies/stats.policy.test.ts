import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { ROLES } from '../../shared/roles';
import { statsPolicy } from './stats.policy';

describe('statsPolicy', () => {
  const server = { ownerId: 7 };

  it("shows a server's stats to its owner", () => {
    expect(() => statsPolicy.assertCanSeeStats({ id: 7, role: 'server_owner' }, server)).not.toThrow();
  });

  it('refuses another owner with "not your server"', () => {
    expect(() => statsPolicy.assertCanSeeStats({ id: 8, role: 'server_owner' }, server)).toThrow(
      expect.objectContaining({ statusCode: 403, message: MSG.notYourServer }),
    );
  });

  it('refuses every other role, admins included, with the generic 403', () => {
    for (const role of ROLES.filter((r) => r !== 'server_owner')) {
      expect(() => statsPolicy.assertCanSeeStats({ id: 7, role }, server)).toThrow(
        expect.objectContaining({ statusCode: 403, message: MSG.forbidden }),
      );
    }
  });
});
