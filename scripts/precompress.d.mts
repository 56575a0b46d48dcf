import type { Plugin } from 'vite';

export const MIN_BYTES: number;
export function precompressDir(dir: string): Promise<{ files: number; bytes: number; br: number; gz: number }>;
export function precompressPlugin(): Plugin;
