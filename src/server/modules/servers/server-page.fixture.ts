import type { PageBody } from './server-page-json';

/** A page of the shape `n` picks: with or without rank, game rank, connect, live players, reviews. */
export function pageOfShape(n: number): PageBody {
  const at = (k: number) => new Date(Date.UTC(2026, 11, 1 + (k % 28), k % 24)).toISOString();
  const body = {
    id: String(1000 + n),
    name: `Server ${n} — “quoted” \\ and "escaped"`,
    ownerId: String(7 + n),
    statusMessage: n % 2 ? 'Open' : '',
    bio: 'A long bio ’ with 😀 characters\n'.repeat(n % 5),
    backgroundColor: '#112233',
    textColor: '#ffffff',
    discordLink: n % 3 ? `https://discord.gg/x${n}` : null,
    filters: Array.from({ length: n % 4 }, (_, i) => `Filter ${i}`),
    profilePicture: n % 2 ? null : `/uploads/p${n}.webp`,
    banner: n % 5 ? `/uploads/b${n}.webp` : null,
    galleryImages: Array.from({ length: n % 3 }, (_, i) => `/uploads/g${n}-${i}.webp`),
    likes: n * 13,
    dislikes: n,
    boosts: n % 7,
    totalBoosts: n * 2,
    joins: n % 11,
    totalJoins: n * 5,
    views: n * 100,
    lastBoostedAt: n % 2 ? at(n) : null,
    currentPlayers: n % 64,
    maxPlayers: n % 3 ? 64 : null,
    online: [true, false, null][n % 3]!,
    createdAt: at(n + 1),
    monthVotes: n % 9,
    rank: n % 4 === 0 ? null : { position: n, of: 100_000, game: n % 2 ? { name: 'FiveM', position: 3, of: 900 } : null },
    connect:
      n % 3 === 0
        ? null
        : {
            address: `play${n}.example.com:30120`,
            links: [{ label: 'Open in FiveM', url: `fivem://connect/play${n}` }],
            howTo: 'Paste it.',
          },
    live:
      n % 5 === 0 ? null : { checkedAt: at(n + 2), map: n % 2 ? 'Los Santos' : null, version: null, players: n % 3 ? ['Ann', 'Bo'] : null },
    reviews: Array.from({ length: n % 6 }, (_, i) => ({
      type: i % 2 ? ('dislike' as const) : ('like' as const),
      review: i % 3 ? `Review ${i}` : null,
      displayName: `Player ${i}`,
      username: `player${i}`,
      profilePicture: null,
      createdAt: at(i),
      editedAt: i % 2 ? at(i + 1) : null,
      joined: i % 2 === 0,
      // What the schema drops, and so must this: a field the query brought along.
      userId: 40 + i,
    })),
    reviewsTotal: n % 6,
  };
  return body as PageBody;
}
