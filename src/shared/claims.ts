/** What the claim routes answer, word for word. */
export const CLAIM_MSG = {
  notConnected: 'Connect a game address first.',
  notVerified: 'Only a verified address can be revoked.',
  claimNotFound: 'Claim not found',
} as const;

/**
 * Where an owner puts a claim's code so the game server itself reports it, per game: the field
 * the poller reads, and how to change it. Every other place in the answer (a player's name, the
 * map) does not count, so only whoever runs the server can prove control.
 */
export function claimInstructions(game: string): { fields: string; how: string } {
  switch (game) {
    case 'fivem':
    case 'redm':
      return {
        fields: 'the host name, sv_projectName or sv_projectDesc',
        how: 'Add the code to sv_hostname, sv_projectName or sv_projectDesc in server.cfg (for example: sets sv_projectDesc "… CODE") and restart the server.',
      };
    case 'minecraft':
    case 'minecraft-bedrock':
      return {
        fields: 'the MOTD',
        how: 'Add the code to the motd= line of server.properties (or your MOTD plugin) and restart or reload the server.',
      };
    default:
      return {
        fields: 'the server name',
        how: 'Add the code to the server name (hostname in server.cfg for Source games such as Garry’s Mod) and restart the server.',
      };
  }
}
