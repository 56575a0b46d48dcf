import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Filter categories for RP servers, present in every database, demo or not.
 * Filter names are unique across categories, since a server's filters are a list of names.
 */
export const FILTER_CATEGORIES: ReadonlyArray<{ name: string; filters: readonly string[] }> = [
  {
    name: 'Game',
    filters: ['FiveM (GTA V)', 'RedM (RDR2)', 'Minecraft Java', 'Minecraft Bedrock', "Garry's Mod", 'Arma 3', 'Rust', 'Conan Exiles'],
  },
  {
    name: 'Style',
    filters: ['Serious RP', 'Semi-Serious RP', 'Casual RP', 'Heavy RP', 'DarkRP', 'Life RP', 'Military RP', 'Fantasy RP', 'Western RP'],
  },
  { name: 'Economy', filters: ['Realistic Economy', 'Player-Driven Economy', 'Boosted Economy', 'Hardcore Economy'] },
  { name: 'Whitelist', filters: ['Whitelisted', 'Application Required', 'Open (No Whitelist)', 'Discord Verification'] },
  {
    name: 'Language',
    filters: ['English', 'German', 'French', 'Spanish', 'Portuguese', 'Dutch', 'Polish', 'Swedish', 'Turkish', 'Arabic'],
  },
  { name: 'Region', filters: ['North America', 'Europe', 'South America', 'Oceania', 'Asia', 'Middle East'] },
  { name: 'Platform', filters: ['PC', 'Xbox', 'PlayStation', 'Mobile', 'Cross-Platform'] },
  {
    name: 'Features',
    filters: [
      'Custom Cars',
      'Custom Scripts',
      'Custom Map',
      'Gangs',
      'Police & EMS',
      'Businesses',
      'Housing',
      'Heists',
      'Weekly Events',
      'Voice Chat',
      'Streamer Friendly',
      'New-Player Friendly',
      'Crafting',
      'Factions',
      'Mods Required',
    ],
  },
];

/** Adds missing categories and filters; never removes or renames what servers already use. */
export async function ensureReferenceData(db: Kysely<Database>): Promise<void> {
  const existing = await db.selectFrom('filters').select('name').execute();
  const have = new Set(existing.map((f) => f.name));
  const categoriesComplete = FILTER_CATEGORIES.every((c) => c.filters.every((f) => have.has(f)));
  if (categoriesComplete) return;

  await db.transaction().execute(async (trx) => {
    for (const [position, category] of FILTER_CATEGORIES.entries()) {
      await trx
        .insertInto('filterCategories')
        .values({ name: category.name, position })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await trx.selectFrom('filterCategories').select('id').where('name', '=', category.name).executeTakeFirstOrThrow();
      await trx
        .insertInto('filters')
        .values(category.filters.map((name, i) => ({ categoryId: row.id, name, position: i })))
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    }
  });
}
