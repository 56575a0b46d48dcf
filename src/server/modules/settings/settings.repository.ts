import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/**
 * Feature toggles of the admin page, with their defaults. Stored in the database rather than the
 * config, so an admin can switch them at run time and every instance enforces the same value.
 */
export const TOGGLES = { enableBoosting: true, enableReviews: true, maintenanceMode: false } as const;
export type Toggle = keyof typeof TOGGLES;

/** The stored feature toggles. */
export function settingsRepository(db: Kysely<Database>) {
  return {
    /** A toggle's stored value, or its default when none is stored. */
    async flag(name: Toggle, tx: Executor = db): Promise<boolean> {
      const row = await tx.selectFrom('settings').select('value').where('key', '=', name).executeTakeFirst();
      return typeof row?.value === 'boolean' ? row.value : TOGGLES[name];
    },

    /** Stores a toggle's value, replacing the one stored before. */
    async setFlag(name: Toggle, value: boolean, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('settings')
        .values({ key: name, value: JSON.stringify(value) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updatedAt: new Date() }))
        .execute();
    },
  };
}

export type SettingsRepository = ReturnType<typeof settingsRepository>;
