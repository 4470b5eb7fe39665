/**
 * Access tokens shaped like the auth service's (header.claims.signature, base64url JSON claims with iat
 * and exp in seconds). The web app never verifies a signature; it only reads when the token expires.
 */
export function accessToken({ sub = 'u1', issuedAt = Date.now(), ttlSeconds = 3600, id = 'a' }: { sub?: string; issuedAt?: number; ttlSeconds?: number; id?: string } = {}): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(issuedAt / 1000);
  return `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part({ sub, role: 'user', tv: 0, iat, exp: iat + ttlSeconds, jti: id })}.signature-${id}`;
}

/** The bearer token a request carried. */
export function bearerOf(request: Request): string | null {
  return request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? null;
}
