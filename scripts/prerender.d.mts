import type { Plugin } from 'vite';

export const LANDING_SLOT: string;
export const APP_FRAME_SLOT: string;
export function localizedPageFile(file: string, locale: string): string;
export function prerenderPlugin(): Plugin;
