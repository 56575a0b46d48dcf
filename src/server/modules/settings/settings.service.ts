import { TOGGLES, type SettingsRepository, type Toggle } from './settings.repository';

export type Toggles = Record<Toggle, boolean>;

interface Deps {
  repository: SettingsRepository;
  /** Called after an update, so caches built on the toggles are dropped. */
  onChange: () => void;
  ttlMs?: number;
}

/**
 * The feature toggles, read on hot paths (every write checks maintenance mode), so kept in memory
 * for two seconds; a change made here is seen at once, one made by another instance within that.
 */
export function settingsService({ repository, onChange, ttlMs = 2000 }: Deps) {
  let cached: { at: number; value: Promise<Toggles> } | undefined;

  const load = async (): Promise<Toggles> => {
    const entries = await Promise.all((Object.keys(TOGGLES) as Toggle[]).map(async (name) => [name, await repository.flag(name)] as const));
    return Object.fromEntries(entries) as Toggles;
  };

  return {
    /** Every toggle's value. */
    all(): Promise<Toggles> {
      if (!cached || Date.now() - cached.at > ttlMs) {
        cached = { at: Date.now(), value: load() };
        cached.value.catch(() => (cached = undefined));
      }
      return cached.value;
    },

    /** One toggle's value. */
    async flag(name: Toggle): Promise<boolean> {
      return (await this.all())[name];
    },

    /** Stores the given toggles (the others stay), tells `onChange`, and returns them all. */
    async update(changes: Partial<Toggles>): Promise<Toggles> {
      for (const [name, value] of Object.entries(changes) as Array<[Toggle, boolean]>) await repository.setFlag(name, value);
      cached = undefined;
      onChange();
      return this.all();
    },
  };
}

export type SettingsService = ReturnType<typeof settingsService>;
