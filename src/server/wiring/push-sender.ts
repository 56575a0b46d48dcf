import type { Config } from '../config';
import type { BuildOptions } from '../app';
import { loadOrCreateSecret } from '../lib/secrets';
import { createPushSender, generateVapidKeys } from '../adapters/web-push';

/**
 * The web-push sender with this site's VAPID keys: configured ones, else a pair made once and kept
 * in the data directory (so subscriptions survive restarts). The contact push services see is the
 * site's https address, else its mail sender.
 */
export function pushSenderFor(config: Config, options: Pick<BuildOptions, 'pushAgent'>) {
  const vapid = config.vapid ?? JSON.parse(loadOrCreateSecret(config.dataDir, 'vapid', () => JSON.stringify(generateVapidKeys())));
  return createPushSender(
    {
      publicKey: vapid.publicKey,
      privateKey: vapid.privateKey,
      subject:
        config.vapid?.subject ??
        (config.publicUrl.startsWith('https://')
          ? config.publicUrl
          : `mailto:${config.mailFrom.includes('@') ? config.mailFrom : 'no-reply@localhost'}`),
    },
    options.pushAgent,
  );
}
