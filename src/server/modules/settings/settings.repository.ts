import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Feature toggles of the admin page (decisions §5), stored so every instance enforces them. */
export const TOGGLES = { enableBoosting: true, enableReviews: true, maintenanceMode: false } as const;
export type Toggle = keyof typeof TOGGLES;

export function settingsRepository(db: Kysely<Database>) {
  return {
    async flag(name: Toggle): Promise<boolean> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', name).executeTakeFirst();
      return typeof row?.value === 'boolean' ? row.value : TOGGLES[name];
    },

    async setFlag(name: Toggle, value: boolean): Promise<void> {
      await db
        .insertInto('settings')
        .values({ key: name, value: JSON.stringify(value) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updatedAt: new Date() }))
        .execute();
    },
  };
}
