// The servers feature's public face: other features import only from here (never a file inside),
// so the endpoints other features share with this one have one fetcher, one schema and one cache
// key. Pages are not exported: the router loads each from its own file, and a page exported here
// would be pulled into the chunk of every page that imports this file (docs/decisions/024-first-load.md).
export { getOwnServers, useOwnServers } from './api/get-own-servers';
export { useServer } from './api/get-server';
export { useServerList, type ListServersParams } from './api/list-servers';
export { FollowedServers } from './components/followed-servers';
