declare module 'gamedig' {
  /** The part of gamedig 5 this project uses (the package ships no types). */
  export interface QueryOptions {
    type: string;
    host: string;
    address?: string;
    port?: number;
    givenPortOnly?: boolean;
    maxRetries?: number;
    socketTimeout?: number;
    attemptTimeout?: number;
    portCache?: boolean;
  }
  export interface QueryResult {
    name?: string;
    numplayers?: number | string;
    maxplayers?: number | string;
    players?: unknown[];
    ping?: number;
  }
  export const GameDig: { query(options: QueryOptions): Promise<QueryResult> };
  /** gamedig's game table: each type's protocol, read to keep HTTP protocols away from gamedig. */
  export const games: Record<string, { name?: string; options?: { port?: number; protocol?: string } }>;
}
