/** socket.io events between server and web app, on socket.io's default path of the one origin. */
export interface ServerToClientEvents {
  /** The live player count across listed servers. */
  playerCountUpdated: (count: number) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the client sends nothing yet
export interface ClientToServerEvents {}
