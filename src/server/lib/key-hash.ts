import crypto from 'node:crypto';

/**
 * A 64-bit hash of a string key, as two unsigned 32-bit halves, keyed by a secret of this process:
 * two keys share a hash only by a chance of about n²/2⁶⁵, and no one who does not know the secret
 * can make two collide (or aim one at another's slot). Tables that hold keys this way keep no
 * string per key.
 */
export function keyHasher(): (key: string) => [hi: number, lo: number] {
  const secret = crypto.randomBytes(16).toString('base64');
  return (key) => {
    // The digest as a one-byte string ('binary' is latin1), read 8 bytes of it: as a `Buffer` each
    // call was a small allocation of malloc's besides an object.
    const digest = crypto.hash('sha1', secret + key, 'binary');
    const at = (i: number) => digest.charCodeAt(i);
    return [(at(0) | (at(1) << 8) | (at(2) << 16) | (at(3) << 24)) >>> 0, (at(4) | (at(5) << 8) | (at(6) << 16) | (at(7) << 24)) >>> 0];
  };
}
