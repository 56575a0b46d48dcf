// The CSP forbids eval. zod decides at each `z.object(…)` whether to compile a parser with
// `new Function`, and the probe alone reports a CSP violation, so it must be told before any schema
// exists. zod reads this global when it loads; main.tsx imports this module first, and it imports
// nothing, so it runs before the chunk that holds zod and the shared schemas.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
