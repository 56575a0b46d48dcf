import { MSG } from '../../../shared/messages';
import { AddressRefused, resolvePublicAddress, type TargetPolicy } from '../../adapters/address-guard';
import { badRequest } from '../../errors';

/** The address guard's refusals (worded for game addresses), as the owner of each kind of target reads them. */
const WEBHOOK_REFUSALS: Record<string, string> = {
  [MSG.gameHostInvalid]: MSG.webhookHostInvalid,
  [MSG.gameHostPrivate]: MSG.webhookHostPrivate,
  [MSG.gameHostUnresolved]: MSG.webhookHostUnresolved,
};
const VOTIFIER_REFUSALS: Record<string, string> = {
  [MSG.gameHostInvalid]: MSG.votifierHostInvalid,
  [MSG.gameHostPrivate]: MSG.votifierHostPrivate,
  [MSG.gameHostUnresolved]: MSG.votifierHostUnresolved,
};

/** Runs a host through the same guard as game addresses; a refusal answers 400 with the kind's message. */
async function assertPublic(host: string, port: number, policy: TargetPolicy, refusals: Record<string, string>): Promise<void> {
  try {
    await resolvePublicAddress(host, port, policy);
  } catch (error) {
    if (error instanceof AddressRefused) throw badRequest(refusals[error.message] ?? error.message);
    throw error;
  }
}

/**
 * A webhook URL may be saved only when its host is, and resolves only to, public addresses (or a
 * test's allowed loopback target). Delivery checks again when it connects: a name may later
 * resolve elsewhere, and the connection goes to the address checked then.
 */
export async function assertWebhookTarget(url: string, policy: TargetPolicy): Promise<void> {
  // The body's schema has made sure this is an https:// URL.
  const target = new URL(url);
  // Delivery refuses a URL with credentials every time: say so now rather than fail every vote.
  if (target.username || target.password) throw badRequest(MSG.webhookCredentials);
  await assertPublic(target.hostname.replace(/^\[(.*)\]$/, '$1'), Number(target.port || 443), policy, WEBHOOK_REFUSALS);
}

/** A scheme (`http://`, `file:///`) or a path: what someone pasted is a URL, not a host. */
const LOOKS_LIKE_URL = /^[a-z][a-z\d+.-]*:\/\/|\//i;
/** `host:port` or `[ipv6]:port`: the port belongs in its own field (a bare IPv6 address never matches). */
const HOST_WITH_PORT = /^(?:\[[^\]]*\]|[^:]*):\d+$/;

/**
 * A Votifier host may be saved only when it is a plain host name or IP that is, and resolves
 * only to, public addresses (or a test's allowed loopback target) on the given port.
 */
export async function assertVotifierTarget(host: string, port: number, policy: TargetPolicy): Promise<void> {
  if (LOOKS_LIKE_URL.test(host)) throw badRequest(MSG.votifierHostIsUrl);
  if (HOST_WITH_PORT.test(host)) throw badRequest(MSG.votifierHostWithPort);
  await assertPublic(host, port, policy, VOTIFIER_REFUSALS);
}
