/** The SEO module: link-preview tags of the web app's pages, `robots.txt` and `sitemap.xml`. */
export { metaTags, SITE, type PageMeta } from './meta';
export { seoRepository, type SeoRepository } from './seo.repository';
export { seoService, type SeoService } from './seo.service';
export { seoRoutes } from './seo.routes';
