// The servers feature's public face: other features and the router import only from here (never a
// file inside), so the endpoints other features share with this one have one fetcher, one schema
// and one cache key.
export { getOwnServers, useOwnServers } from './api/get-own-servers';
export { useServer } from './api/get-server';
export { useServerList, type ListServersParams } from './api/list-servers';
export { DashboardPage } from './components/dashboard-page';
export { HomePage } from './components/home-page';
export { ListPage } from './components/list-page';
export { QuickCreatePage } from './components/quick-create-page';
export { SearchPage } from './components/search-page';
export { ServerPage } from './components/server-page';
export { FollowedServers } from './components/followed-servers';
