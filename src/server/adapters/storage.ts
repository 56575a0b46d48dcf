import fs from 'node:fs/promises';
import path from 'node:path';

/** Stores uploaded and generated files under generated keys; served read-only at `/uploads/`. */
export interface Storage {
  readonly root: string;
  put(key: string, data: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  url(key: string): string;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_-]*\.[a-z0-9]+$/;

export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    root,
    async put(key, data) {
      const file = resolve(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.tmp`;
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, file);
    },
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
    url: (key) => `/uploads/${key}`,
  };
}
