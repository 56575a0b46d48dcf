import type { Plugin } from 'vite';

export const ROUTE_PRELOADS_FILE: string;
export const CATALOG_PRELOADS_FILE: string;
export function routePreloadsPlugin(pages: Record<string, string>, catalogs?: Record<string, string>): Plugin;
