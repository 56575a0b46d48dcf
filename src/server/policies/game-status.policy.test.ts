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

  it('shows the history of a listed server and answers 404 for a hidden one', () => {
    expect(() => gameStatusPolicy.assertCanSeeHistory({ hidden: false })).not.toThrow();
    expect(() => gameStatusPolicy.assertCanSeeHistory({ hidden: true })).toThrow(
      expect.objectContaining({ statusCode: 404, message: MSG.serverNotFound }),
    );
  });
});
