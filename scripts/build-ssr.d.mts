import type { Plugin } from 'vite';

export declare function pageRendererPlugin(): Plugin;
export declare function pageBootPlugin(): Plugin;
