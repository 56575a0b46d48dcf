// The admin feature's public face: the site-wide maintenance banner (its pages load from their own files).
export { MaintenanceBanner } from './components/maintenance-banner';
