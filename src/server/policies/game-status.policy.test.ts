import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { gameStatusPolicy } from './game-status.policy';

describe('gameStatusPolicy', () => {
  it('lets only the owner manage the game address, not even an admin', () => {
    const server = { ownerId: 7 };
    expect(() => gameStatusPolicy.assertCanManageGame({ id: 7 }, server)).not.toThrow();
    for (const actor of [{ id: 8 }, { id: 1, role: 'admin' as const }]) {
      expect(() => gameStatusPolicy.assertCanManageGame(actor, server)).toThrow(
        expect.objectContaining({ statusCode: 403, message: MSG.notYourServer }),
      );
    }
  });

  it('shows the history of a listed server only', () => {
    expect(gameStatusPolicy.canSeeHistory({ hidden: false })).toBe(true);
    expect(gameStatusPolicy.canSeeHistory({ hidden: true })).toBe(false);
  });
});
