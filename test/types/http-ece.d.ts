declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  /** Decrypts an aes128gcm body (the part of http_ece the tests use). */
  export function decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer | string }): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
