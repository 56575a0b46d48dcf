import type { SocketServer } from '../../plugins/socket';
import type { PlayerCountService } from './player-count.service';

/**
 * Every socket hears the current count as soon as it connects, so a client that reconnects
 * (after a network blip or a server restart) never shows a number it missed the update of.
 */
export function sendCountOnConnect(io: SocketServer, playerCount: Pick<PlayerCountService, 'count'>): void {
  io.on('connection', (socket) => {
    socket.emit('playerCountUpdated', playerCount.count);
  });
}
