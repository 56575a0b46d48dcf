/** The users module's public face: accounts in the database and their API shape. */
export { usersRepository, type UsersRepository } from './users.repository';
export { toApiUser } from './users.mapper';
export { activeUserLoader, type ActiveUserLoader } from './active-users';
