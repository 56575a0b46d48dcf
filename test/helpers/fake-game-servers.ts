import http from 'node:http';
import dgram from 'node:dgram';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Answer {
  players: number | string;
  max: number | string;
  name?: string;
  /** FiveM: the names /players.json lists (default p0, p1, …) and the map /dynamic.json names. */
  names?: string[];
  map?: string;
  /** FiveM: `sv_projectName` and `sv_projectDesc` in /info.json's vars. */
  projectName?: string;
  projectDesc?: string;
}

/** Minecraft's server-list ping over TCP: handshake, status request, JSON answer, ping/pong. */
export async function startFakeMinecraft(initial: Answer, port = 0, host = '127.0.0.1') {
  let answer: Answer | null = initial;
  const writeVarInt = (value: number) => {
    const bytes: number[] = [];
    do {
      let byte = value & 0x7f;
      value >>>= 7;
      if (value) byte |= 0x80;
      bytes.push(byte);
    } while (value);
    return Buffer.from(bytes);
  };
  const packet = (id: number, payload: Buffer) => {
    const body = Buffer.concat([writeVarInt(id), payload]);
    return Buffer.concat([writeVarInt(body.length), body]);
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (!answer) return socket.destroy();
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      // Enough to have read the handshake and the status request: answer once, then echo pings.
      if (buffer.length > 0 && answer) {
        const json = JSON.stringify({
          version: { name: '1.20.4', protocol: 765 },
          players: {
            max: answer.max,
            online: answer.players,
            sample: (answer.names ?? []).map((name, i) => ({ name, id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}` })),
          },
          description: { text: answer.name ?? 'Fake MC' },
        });
        const text = Buffer.from(json, 'utf8');
        socket.write(packet(0x00, Buffer.concat([writeVarInt(text.length), text])));
        const ping = buffer.indexOf(Buffer.from([0x09, 0x01]));
        if (ping >= 0 && buffer.length >= ping + 10) socket.write(packet(0x01, buffer.subarray(ping + 2, ping + 10)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    set(next: Answer | null) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** How a fake FiveM server misbehaves, beside answering normally. */
export type FiveMMode =
  | 'normal'
  /** An older server: no /dynamic.json, so the count comes from /players.json. */
  | 'legacy'
  /** Accepts and never answers. */
  | 'silent'
  /** Answers everything but /players.json (404), so its count cannot be checked against a list. */
  | 'no-player-list'
  /** Sends headers, then one byte every 100 ms, forever. */
  | 'drip'
  | { redirect: string; status?: number }
  /** An answer of this many bytes. */
  | { huge: number; chunked?: boolean };

/** A FiveM/RedM server's HTTP side (FXServer answers /dynamic.json, /info.json and /players.json on the game port). */
export async function startFakeFiveM(initial: Answer, listenPort = 0) {
  let answer: Answer | null = initial;
  let mode: FiveMMode = 'normal';
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const httpServer = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (!answer) return res.destroy();
    if (mode === 'silent') return;
    if (mode === 'drip') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 100);
      timers.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        timers.delete(timer);
      });
      return;
    }
    if (typeof mode === 'object' && 'redirect' in mode) return res.writeHead(mode.status ?? 302, { location: mode.redirect }).end();
    if (typeof mode === 'object' && 'huge' in mode) {
      const body = Buffer.alloc(mode.huge, 0x20);
      res.writeHead(200, mode.chunked ? {} : { 'content-length': String(body.length) });
      // Written in pieces so a chunked answer really arrives chunked.
      for (let i = 0; i < body.length; i += 64 * 1024) res.write(body.subarray(i, i + 64 * 1024));
      return res.end();
    }
    if (req.url === '/players.json' && mode === 'no-player-list') return res.writeHead(404).end();
    if (req.url === '/dynamic.json' && (mode === 'normal' || mode === 'no-player-list')) {
      return res.end(
        JSON.stringify({
          clients: answer.players,
          sv_maxclients: String(answer.max),
          hostname: answer.name ?? 'Fake FiveM',
          mapname: answer.map ?? 'fivem-map-skater',
        }),
      );
    }
    if (req.url === '/info.json')
      return res.end(
        JSON.stringify({
          vars: {
            sv_maxClients: String(answer.max),
            ...(answer.projectName !== undefined ? { sv_projectName: answer.projectName } : {}),
            ...(answer.projectDesc !== undefined ? { sv_projectDesc: answer.projectDesc } : {}),
          },
          version: 7290,
          server: 'FXServer-master v1.0.0.7290 linux',
        }),
      );
    if (req.url === '/players.json') {
      const n = typeof answer.players === 'number' && answer.players >= 0 && answer.players <= 1000 ? answer.players : 0;
      const names = answer.names ?? Array.from({ length: n }, (_, i) => `p${i}`);
      return res.end(JSON.stringify(names.map((name, i) => ({ id: i + 1, name, ping: 40 }))));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => httpServer.listen(listenPort, '127.0.0.1', resolve));
  const port = (httpServer.address() as AddressInfo).port;
  return {
    port,
    /** The paths asked for, in order. */
    requests,
    set(next: Answer | null) {
      answer = next;
    },
    behave(next: FiveMMode) {
      mode = next;
    },
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/**
 * A TCP listener that should never be reached: counts every connection it gets, on 127.0.0.1
 * (or the loopback address given) and a port of its own (or the one given).
 */
export async function startCanary(address = '127.0.0.1', port = 0) {
  let hits = 0;
  const server = net.createServer((socket) => {
    hits++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port, address, resolve));
  return {
    address,
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A Source engine server's A2S queries over UDP (Garry's Mod and the other Source games): INFO
 * (after a challenge, as current servers ask), and PLAYER with its challenge. `null` stays silent.
 */
export async function startFakeSource(initial: Answer) {
  let answer: Answer | null = initial;
  const challenge = Buffer.from([0x5a, 0x17, 0xc3, 0x09]);
  const socket = dgram.createSocket('udp4');
  const cstring = (text: string) => Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]);
  const header = (type: number) => Buffer.from([0xff, 0xff, 0xff, 0xff, type]);
  const count = (v: number | string) => (typeof v === 'number' ? v & 0xff : Number.parseInt(v, 10) & 0xff || 0);
  socket.on('message', (message, remote) => {
    if (!answer || message.length < 5 || message.readInt32LE(0) !== -1) return;
    const send = (packet: Buffer) => socket.send(packet, remote.port, remote.address);
    const type = message[4];
    if (type === 0x54) {
      const asked = message.subarray(5 + 'Source Engine Query'.length + 1);
      if (!asked.equals(challenge)) return send(Buffer.concat([header(0x41), challenge]));
      return send(
        Buffer.concat([
          header(0x49),
          Buffer.from([17]),
          cstring(answer.name ?? 'Fake Source'),
          cstring(answer.map ?? 'rp_downtown_v4c_v2'),
          cstring('garrysmod'),
          cstring('DarkRP'),
          Buffer.from([0xa0, 0x0f]), // app id 4000, little-endian
          Buffer.from([count(answer.players), count(answer.max), 0, 0x64, 0x6c, 0, 0]),
          cstring('2024.10.29'),
          Buffer.from([0]),
        ]),
      );
    }
    if (type === 0x55) {
      if (!message.subarray(5, 9).equals(challenge)) return send(Buffer.concat([header(0x41), challenge]));
      const names = answer.names ?? Array.from({ length: count(answer.players) }, (_, i) => `p${i}`);
      const rows = names.map((name, i) => {
        const tail = Buffer.alloc(8);
        tail.writeInt32LE(i, 0);
        tail.writeFloatLE(60, 4);
        return Buffer.concat([Buffer.from([i]), cstring(name), tail]);
      });
      return send(Buffer.concat([header(0x44), Buffer.from([rows.length]), ...rows]));
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    set(next: Answer | null) {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
