import type { Plugin } from 'vite';

export declare const SSR_OUT: string;
export declare function buildPageRenderer(options?: { outdir?: string }): Promise<void>;
export declare function pageRendererPlugin(): Plugin;
