import type { Plugin } from 'vite';

export declare function pageRendererPlugin(): Plugin;
