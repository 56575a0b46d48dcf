/** The owner-api module: API keys and the versioned read API they open. */
export { ownerApiRepository, type OwnerApiRepository } from './owner-api.repository';
export { ownerApiService, MAX_KEYS, type OwnerApiService } from './owner-api.service';
export { ownerApiRoutes, type OwnerApiLimit } from './owner-api.routes';
