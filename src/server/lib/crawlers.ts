/**
 * User agents of clients that say they are robots: search engines, link previews (chat apps and
 * social networks fetch a page when a link is posted), SEO tools, archivers, monitors and plain
 * HTTP libraries. They must not count as people viewing a page. Deliberately short: this only
 * catches honest robots; a script posing as a browser is held back by the per-viewer, per-day
 * and per-network limits instead. `(?<!cu)bot\b` skips Cubot phones ("Cubot P40").
 */
const CRAWLER_UA =
  /(?<!cu)bot\b|crawl|spider|slurp|archiver|scrap|facebookexternalhit|facebookcatalog|meta-externalagent|embedly|whatsapp|skypeuripreview|pinterest|vkshare|mediapartners-google|adsbot|google-inspectiontool|lighthouse|headlesschrome|phantomjs|^curl\/|^wget\/|python-requests|python-urllib|aiohttp|go-http-client|okhttp|node-fetch|undici|axios\/|libwww-perl|java\/|^$/i;

/** True when the User-Agent names a robot, or is missing (every browser sends one). */
export function isCrawler(userAgent: string | undefined): boolean {
  return CRAWLER_UA.test((userAgent ?? '').trim());
}
