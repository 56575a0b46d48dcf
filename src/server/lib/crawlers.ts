/**
 * User agents of clients that say they are robots: search engines, link previews (chat apps and
 * social networks fetch a page when a link is posted), SEO tools, archivers, monitors and plain
 * HTTP libraries. They must not count as people viewing a page. Deliberately short: this only
 * catches honest robots; a script posing as a browser is held back by the per-viewer, per-day
 * and per-network limits instead. `(?<!cu)bot\b` skips Cubot phones ("Cubot P40").
 */
const CRAWLER_UA =
  /(?<!cu)bot\b|crawl|spider|slurp|archiver|scrap|facebookexternalhit|facebookcatalog|meta-externalagent|embedly|whatsapp|skypeuripreview|pinterest|vkshare|mediapartners-google|adsbot|google-inspectiontool|lighthouse|headlesschrome|phantomjs|^curl\/|^wget\/|python-requests|python-urllib|aiohttp|go-http-client|okhttp|node-fetch|undici|axios\/|libwww-perl|java\/|^$/i;

/** Answers for user agents seen lately: a handful of browsers make most requests, and the test is ~30 patterns. */
const known = new Map<string, boolean>();
const KNOWN_MAX = 1000;
/** Longer user agents are tested each time, never kept (a real one is a few hundred characters). */
const KNOWN_LENGTH_MAX = 512;

/** True when the User-Agent names a robot, or is missing (every browser sends one). */
export function isCrawler(userAgent: string | undefined): boolean {
  const agent = userAgent ?? '';
  let robot = known.get(agent);
  if (robot === undefined) {
    robot = CRAWLER_UA.test(agent.trim());
    if (agent.length <= KNOWN_LENGTH_MAX) {
      if (known.size >= KNOWN_MAX) known.clear();
      known.set(agent, robot);
    }
  }
  return robot;
}
