import type { Plugin } from 'vite';

export const ROUTE_PRELOADS_FILE: string;
export function routePreloadsPlugin(pages: Record<string, string>): Plugin;
