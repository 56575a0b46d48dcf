export declare const SERVER_NODE_FLAGS: string[];
/** `SERVER_NODE_FLAGS` less those `nodeOptions` (default: `NODE_OPTIONS`) sets itself. */
export declare function serverNodeFlags(nodeOptions?: string): string[];
export declare const SERVER_ENV: Record<string, string>;
