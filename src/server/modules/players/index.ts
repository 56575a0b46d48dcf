/** The players module's public face: player profiles. */
export { playersRoutes } from './players.routes';
export { playersService, type PlayersService } from './players.service';
export { playersRepository, type PlayersRepository } from './players.repository';
