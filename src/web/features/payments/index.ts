// The payments feature's public face: the boost credits note the dashboard shows (its pages load from their own files).
export { BoostCreditsNote } from './components/boost-credits-note';
