/** Where the device keeps the visitor's language (the cookie carries it to the server too). */
export const LOCALE_STORAGE_KEY = 'rp.locale';
