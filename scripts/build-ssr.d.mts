import type { Plugin } from 'vite';

export declare function pageRendererPlugin(): Plugin;
export declare function pageBootPlugin(): Plugin;
/** Builds the page renderer into `outdir` (default dist/web-ssr), replacing what is there. */
export declare function buildPageRenderer(options?: { outdir?: string }): Promise<void>;
/** React Router's production build's files, by the import path they stand for. */
export declare const REACT_ROUTER_PRODUCTION: Record<'react-router' | 'react-router/dom', string>;
