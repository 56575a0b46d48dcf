import type { Plugin } from 'vite';

export const LANDING_SLOT: string;
export function prerenderLandingPlugin(): Plugin;
