import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../shared/events';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
let users = 0;

/** One shared socket.io connection to this origin (app, API and socket share it); released when no one needs it. */
export function acquireSocket(): { socket: AppSocket; release: () => void } {
  socket ??= io({ path: '/socket.io', transports: ['websocket', 'polling'] });
  users += 1;
  const mine = socket;
  let released = false;
  return {
    socket: mine,
    release: () => {
      if (released) return;
      released = true;
      users -= 1;
      if (users === 0 && socket === mine) {
        mine.disconnect();
        socket = null;
      }
    },
  };
}
