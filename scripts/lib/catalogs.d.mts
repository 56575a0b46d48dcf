import type { Plugin } from 'vite';

export function compileCatalog(raw: Record<string, string>): Record<string, unknown>;
export function catalogsPlugin(): Plugin;
