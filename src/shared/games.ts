/** Games whose servers can report their own status (polled through gamedig), with gamedig's type and the usual port. */
export const GAMES = [
  { id: 'fivem', label: 'FiveM (GTA V)', gamedig: 'gta5f', port: 30120 },
  { id: 'redm', label: 'RedM (RDR2)', gamedig: 'rdr2r', port: 30120 },
  { id: 'minecraft', label: 'Minecraft Java', gamedig: 'minecraft', port: 25565 },
  { id: 'minecraft-bedrock', label: 'Minecraft Bedrock', gamedig: 'mbe', port: 19132 },
  { id: 'garrysmod', label: "Garry's Mod", gamedig: 'garrysmod', port: 27015 },
  { id: 'arma3', label: 'Arma 3', gamedig: 'arma3', port: 2303 },
  { id: 'rust', label: 'Rust', gamedig: 'rust', port: 28015 },
  { id: 'conanexiles', label: 'Conan Exiles', gamedig: 'conanexiles', port: 27015 },
] as const;

export type GameId = (typeof GAMES)[number]['id'];
export const GAME_IDS = GAMES.map((g) => g.id) as [GameId, ...GameId[]];
export const gameById = (id: string) => GAMES.find((g) => g.id === id);
