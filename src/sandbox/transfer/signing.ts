// Pre-signed download addresses, object-storage style: the address carries its own expiry and an HMAC over
// (id, name, expiry) under a secret only the sandbox knows, so the download needs no api-key and any edit of
// the address (another file, a later expiry) breaks the signature.

import { createHmac, timingSafeEqual } from 'node:crypto';

function signDownload(secret: Buffer, id: string, name: string, expiresMs: number): string {
  return createHmac('sha256', secret).update(`${id}|${name}|${expiresMs}`).digest('hex');
}

type SignatureCheck = 'ok' | 'missing' | 'tampered' | 'expired';

/** Checks a download's signature, then its expiry (a forged expiry is "tampered", not "expired"). */
export function checkDownload(secret: Buffer, id: string, name: string, expires: string | null, sig: string | null, nowMs: number): SignatureCheck {
  if (!expires || !sig) return 'missing';
  if (!/^\d{1,16}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) return 'tampered';
  const want = Buffer.from(signDownload(secret, id, name, Number(expires)), 'hex');
  if (!timingSafeEqual(want, Buffer.from(sig, 'hex'))) return 'tampered';
  return nowMs > Number(expires) ? 'expired' : 'ok';
}

/** Path and query of a file's download address (the caller prefixes the sandbox's own base address). */
export function downloadPath(secret: Buffer, id: string, name: string, expiresMs: number): string {
  return `/_files/${encodeURIComponent(id)}/${encodeURIComponent(name)}?expires=${expiresMs}&sig=${signDownload(secret, id, name, expiresMs)}`;
}
