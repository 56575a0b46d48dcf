import { z } from 'zod';

/** How a player gets from a server's page into the game. */
export const connectSchema = z.object({
  /** What to paste into the game (Minecraft Java leaves out the usual port). */
  address: z.string(),
  /** Links the game opens itself, best first. */
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  /** What to do with the address where there is no link. */
  howTo: z.string(),
});
export type ConnectInfo = z.infer<typeof connectSchema>;

/** The cfx.re join code an owner gives: the code itself or its link (`https://cfx.re/join/abc123`). */
export const cfxCodeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((v) => v.replace(/^(https?:\/\/)?(www\.)?cfx\.re\/join\//, '').replace(/\/$/, ''))
  .pipe(z.string().regex(/^[a-z0-9]{4,12}$/, 'Enter your cfx.re join code (like abc123) or its link'));

/**
 * The ways into a connected server: FiveM and RedM open their own `fivem://` / `redm://` links
 * (and the cfx.re join link when the owner has one), Source games take `steam://connect`, and
 * Minecraft (Java and Bedrock ask differently) gets the address to paste.
 */
export function connectInfo(server: {
  game: string | null;
  gameHost: string | null;
  gamePort: number | null;
  cfxCode?: string | null;
}): ConnectInfo | null {
  const { game, gameHost: host, gamePort: port } = server;
  if (!game || !host || !port) return null;
  const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const cfx = server.cfxCode ? [{ label: 'Join on cfx.re', url: `https://cfx.re/join/${server.cfxCode}` }] : [];
  switch (game) {
    case 'fivem':
      return {
        address: hostPort,
        links: [{ label: 'Connect in FiveM', url: `fivem://connect/${hostPort}` }, ...cfx],
        howTo: 'Or open FiveM, press F8 and type: connect ' + hostPort,
      };
    case 'redm':
      return {
        address: hostPort,
        links: [{ label: 'Connect in RedM', url: `redm://connect/${hostPort}` }, ...cfx],
        howTo: 'Or open RedM, press F8 and type: connect ' + hostPort,
      };
    case 'garrysmod':
    case 'rust':
      return {
        address: hostPort,
        links: [{ label: 'Connect through Steam', url: `steam://connect/${hostPort}` }],
        howTo: `Or type in the game's console: connect ${hostPort}`,
      };
    case 'minecraft': {
      const address = port === 25565 ? host : hostPort;
      return { address, links: [], howTo: 'In Minecraft (Java Edition): Multiplayer → Add Server, paste the address.' };
    }
    case 'minecraft-bedrock':
      return {
        address: hostPort,
        links: [],
        howTo: `In Minecraft (Bedrock): Play → Servers → Add Server, with address ${host} and port ${port}.`,
      };
    default:
      return { address: hostPort, links: [], howTo: 'Paste the address into the game’s server browser.' };
  }
}
