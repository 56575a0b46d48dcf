/** The Discord module's public face: sign in, sign up, link and unlink with Discord. */
export { discordRoutes } from './discord.routes';
export { discordService, type DiscordService } from './discord.service';
export { discordRepository } from './discord.repository';
