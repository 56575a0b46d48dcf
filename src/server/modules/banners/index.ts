/** The banners module: live server banners for forums and link previews. */
export { bannersService, type BannersService } from './banners.service';
export { bannersRoutes } from './banners.routes';
export { bannerSvg, BANNER_SIZES, type BannerSize } from './banner.svg';
