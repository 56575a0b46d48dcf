// The owners', payments' and admins' namespaces: loaded with those pages only, so a player's first
// visit does not download them.
import owner from './owner.json';
import payments from './payments.json';
import admin from './admin.json';

export default { ...owner, ...payments, ...admin };
