/** Every length limit, price and count of the product, in one place (see docs/decisions/017-roles-and-limits.md). */
export const LIMITS = {
  serverName: 100,
  statusMessage: 200,
  bio: 300,
  testimonial: 300,
  review: 300,
  displayName: 50,
  usernameMin: 3,
  usernameMax: 32,
  passwordMin: 8,
  passwordMax: 128,
  email: 254,
  notificationTitle: 100,
  notificationMessage: 500,
  galleryImages: 10,
  maxServersPerOwner: 3,
  uploadBytes: 5 * 1024 * 1024,
  listDefault: 24,
  listMax: 100,
  homeTop: 10,
  listTab: 10,
  popularFilters: 10,
} as const;

/** Prices in integer cents: money is stored as cents; the API's `amount` is dollars. */
export const PRICES = {
  playerBoostCents: 200,
  proMonthlyCents: 1000,
  premiumMonthlyCents: 2500,
  weekendCents: 10000,
  premiumBoostDiscountPercent: 25,
  premiumNewServerBoostCredits: 100,
} as const;

/** Owner boost packages: number of boosts and their price in cents. */
export const BOOST_PACKAGES = [
  { boosts: 10, cents: 500 },
  { boosts: 25, cents: 1000 },
  { boosts: 50, cents: 2000 },
  { boosts: 200, cents: 5000 },
  { boosts: 1000, cents: 10000 },
] as const;

/** Push promotions allowed per rolling 24 hours, by plan; none without a plan. */
export const PUSH_LIMITS = { '': 0, Pro: 2, Premium: 4 } as const;

/** Default page colours of a server: black text on white. */
export const DEFAULT_COLORS = { background: '#ffffff', text: '#000000' } as const;

/** Timing of the UI: the player count animates for 800 ms. */
export const UI_TIMING = { countAnimationMs: 800 } as const;

/** Converts integer cents to the API's dollar amount (e.g. 375 → 3.75). */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}
