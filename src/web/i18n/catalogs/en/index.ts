// The namespaces every page may show, merged: one module, so one chunk a visitor downloads first.
import common from './common.json';
import errors from './errors.json';
import landing from './landing.json';
import auth from './auth.json';
import browse from './browse.json';
import server from './server.json';
import filters from './filters.json';

export default { ...common, ...errors, ...landing, ...auth, ...browse, ...server, ...filters };
