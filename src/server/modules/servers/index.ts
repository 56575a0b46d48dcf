/**
 * The servers module's public face: everything outside `modules/servers/` (the composition
 * root, the route table, plugins, other modules) imports from here.
 */
export { serversRoutes } from './servers.routes';
export { ownerServersRoutes } from './owner-servers.routes';
export { discoveryRoutes } from './discovery.routes';
export { votesRoutes } from './votes.routes';

export { serversService, type ServersService, type ServerUploads } from './servers.service';
export { discoveryService, type CacheChange, type DiscoveryService, type VoteCounters } from './discovery.service';
export { COUNTERS_LISTED_WITHIN_MS, heardChange, serverTags } from './cache-change';
export { votesService, type VotesService } from './votes.service';
export { DEFAULT_COUNTING, type CountingSettings, type Visitor } from './audience-counter';

export { serversRepository, type ServersRepository } from './servers.repository';
export { serverWritesRepository, type ServerWritesRepository } from './server-writes.repository';
export { discoveryRepository, type DiscoveryRepository } from './discovery.repository';
export { votesRepository, type VotesRepository } from './votes.repository';
export { VOTER_STATE, type RefusedVoter } from './voter-check';
export {
  DEFAULT_HOLD_RULES,
  NO_HOLDS,
  heldExpression,
  heldForBurst,
  holdBurstPeers,
  VOTE_GATHER,
  voteBatchKeys,
  type HoldRules,
} from './hold-rules.repository';
export { audienceRepository, type AudienceRepository } from './audience.repository';
export { searchIndexRepository, type SearchIndexRepository } from './search-index.repository';

export { uploadLimit, voteLimit } from './limits';
export { prepareImages, removeStored, withStoredImages } from './media';
