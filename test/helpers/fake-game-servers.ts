import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Answer {
  players: number | string;
  max: number | string;
  name?: string;
}

/** Minecraft's server-list ping over TCP: handshake, status request, JSON answer, ping/pong. */
export async function startFakeMinecraft(initial: Answer) {
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
          players: { max: answer.max, online: answer.players, sample: [] },
          description: { text: answer.name ?? 'Fake MC' },
        });
        const text = Buffer.from(json, 'utf8');
        socket.write(packet(0x00, Buffer.concat([writeVarInt(text.length), text])));
        const ping = buffer.indexOf(Buffer.from([0x09, 0x01]));
        if (ping >= 0 && buffer.length >= ping + 10) socket.write(packet(0x01, buffer.subarray(ping + 2, ping + 10)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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

/** A FiveM server: UDP `getinfo` and HTTP `/info.json` and `/players.json` on one port. */
export async function startFakeFiveM(initial: Answer) {
  let answer: Answer | null = initial;
  const httpServer = http.createServer((req, res) => {
    if (!answer) return res.destroy();
    if (req.url === '/info.json') return res.end(JSON.stringify({ vars: { sv_maxClients: String(answer.max) }, version: 7290 }));
    if (req.url === '/players.json') return res.end(JSON.stringify([]));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const port = (httpServer.address() as AddressInfo).port;
  const udp = dgram.createSocket('udp4');
  udp.on('message', (message, remote) => {
    if (!answer || !message.toString('latin1').includes('getinfo')) return;
    const info = `\\sv_maxclients\\${answer.max}\\clients\\${answer.players}\\hostname\\${answer.name ?? 'Fake FiveM'}\\iv\\1234\\gamename\\gta5`;
    udp.send(Buffer.from(`\xff\xff\xff\xffinfoResponse\n${info}`, 'latin1'), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', () => resolve()));
  return {
    port,
    set(next: Answer | null) {
      answer = next;
    },
    close: async () => {
      udp.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
