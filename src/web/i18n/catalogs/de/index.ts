// Every namespace of this language's catalog, merged: one module, so one chunk a visitor downloads.
import common from './common.json';
import errors from './errors.json';
import landing from './landing.json';
import auth from './auth.json';
import browse from './browse.json';
import server from './server.json';
import owner from './owner.json';
import payments from './payments.json';
import admin from './admin.json';

export default { ...common, ...errors, ...landing, ...auth, ...browse, ...server, ...owner, ...payments, ...admin };
