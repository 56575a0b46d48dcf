/** The repository root. */
export const ROOT: string;
/** Compiles the server to dist/server when it is missing or older than its sources. */
export function ensureServerBuild(options?: { force?: boolean }): Promise<void>;
/** Builds the web app into dist/web when it is missing or older than its sources. */
export function ensureWebBuild(options?: { force?: boolean }): void;
/** Installs Debian's nginx-light when /usr/sbin/nginx is missing (exits the process when it cannot). */
export function ensureNginx(): void;
