/** The e2e admin the server creates at start-up from ADMIN_* (the only way to get an admin). */
export const E2E_ADMIN = { username: 'e2e_admin', password: 'e2e-admin-password', email: 'admin@e2e.test' } as const;

/** Accounts of the demo seed (SEED_DEMO=1). */
export const DEMO = { player: 'demo_player', owner: 'demo_owner', password: 'demo-password' } as const;

/** The Discord application the e2e server is set up with; the journeys' local provider checks the same pair. */
export const E2E_DISCORD = { clientId: '1234567890123', clientSecret: 'e2e-discord-secret' } as const;
