import { describe, expect, it } from 'vitest';
import type { Server } from '../../../shared/schemas/server';
import { decodeCard, decodedLength, decodeInto, encodeCard, viewOf } from './card-codec';

/** A small seeded generator (mulberry32), so a failure is the same on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces a card's texts are drawn from: the codec's own words among them, quotes, escapes, every kind of character. */
const PIECES = [
  'null',
  ',"name":',
  '{"id":',
  '"bio":',
  ',"monthVotes":0}',
  'City RP ',
  'Ünïcode 🚓 ',
  '\u0000\u0001\u001f\u007f',
  '\\',
  '"',
  '’…',
  ' Whitelist open. ',
  '\u2028',
];

function text(next: () => number, maxPieces: number): string {
  let out = '';
  const count = Math.floor(next() * maxPieces);
  for (let i = 0; i < count; i++) out += PIECES[Math.floor(next() * PIECES.length)]!;
  return out;
}

function cardOf(next: () => number, id: number): Server {
  const maybe = <T>(value: T): T | null => (next() < 0.5 ? null : value);
  return {
    id: String(id),
    name: text(next, 4),
    ownerId: String(id * 7),
    statusMessage: text(next, 12),
    bio: text(next, 30),
    backgroundColor: '#ffffff',
    textColor: '#000000',
    discordLink: maybe('https://discord.gg/null'),
    filters: Array.from({ length: Math.floor(next() * 6) }, () => text(next, 2)),
    profilePicture: maybe('/uploads/a.webp'),
    banner: maybe('/uploads/b.webp'),
    galleryImages: next() < 0.5 ? [] : ['/uploads/c.webp'],
    likes: Math.floor(next() * 40_000),
    dislikes: Math.floor(next() * 1_000),
    boosts: 0,
    totalBoosts: 3,
    joins: 0,
    totalJoins: 12,
    views: 100,
    lastBoostedAt: maybe('2026-12-06T00:18:50.785Z'),
    currentPlayers: 19,
    maxPlayers: maybe(64),
    online: next() < 0.3 ? null : next() < 0.5,
    createdAt: '2026-07-07T15:44:40.695Z',
    monthVotes: 4,
  };
}

describe('card codec', () => {
  it('gives back every card byte for byte, wherever its words appear, and writes it where it is told', () => {
    const next = random(7);
    for (let i = 0; i < 3_000; i++) {
      const json = JSON.stringify(cardOf(next, i + 1));
      const held = encodeCard(json);
      const bytes = Buffer.from(json);
      expect(decodeCard(held).equals(bytes)).toBe(true);
      expect(decodedLength(held)).toBe(bytes.length);
      // Inside bigger buffers, from and to an offset, as a list answer writes cards one after another.
      const chunk = Buffer.concat([Buffer.from('ab'), held, Buffer.from('cd')]);
      const out = Buffer.alloc(bytes.length + 6, 0x2e);
      expect(decodeInto(out, viewOf(out), 3, chunk, viewOf(chunk), 2, 2 + held.length)).toBe(3 + bytes.length);
      expect(out.subarray(3, 3 + bytes.length).equals(bytes)).toBe(true);
      expect(out.toString('latin1', 0, 3) + out.toString('latin1', 3 + bytes.length)).toBe('......');
    }
  });

  it('takes any JSON, keys it does not know and none at all included', () => {
    for (const json of ['{}', '[]', 'null', '{"rank":null,"other":[null,true]}', '"\\u0001"', JSON.stringify({ x: 'ü'.repeat(300) })]) {
      expect(decodeCard(encodeCard(json)).toString()).toBe(json);
    }
  });

  it('holds a card in about two thirds of its JSON', () => {
    const next = random(11);
    let json = 0;
    let held = 0;
    for (let i = 0; i < 200; i++) {
      const card = JSON.stringify(cardOf(next, 50_000 + i));
      json += Buffer.byteLength(card);
      held += encodeCard(card).length;
    }
    // Every key is one byte instead of its name, quotes, colon and comma.
    expect(json - held).toBeGreaterThan(200 * 280);
  });
});
