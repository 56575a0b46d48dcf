// Every namespace of this language's catalog, merged: one module, so one chunk a visitor downloads.
import email from './email.json';
import push from './push.json';
import meta from './meta.json';

export default { ...email, ...push, ...meta };
