// Credentials, bans and the per-key rate limit.
import type { FastifyRequest } from 'fastify';
import type { SimContext } from './context.ts';
import { SimError } from './errors.ts';

/**
 * The label of the request's credential. x-api-key wins when both forms arrive (docs/service.md, Both credential forms, as the
 * REST ref); missing or unknown credentials → 401 UNAUTHORIZED.
 */
export function authenticate(ctx: SimContext, request: FastifyRequest): string {
  const apiKey = request.headers['x-api-key'];
  const auth = request.headers.authorization;
  let credential: string | undefined;
  if (typeof apiKey === 'string' && apiKey !== '') credential = apiKey;
  else if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) credential = m[1];
  }
  const info = credential === undefined ? undefined : ctx.state.keys.get(credential);
  if (!info) {
    throw new SimError(
      401,
      'UNAUTHORIZED',
      credential === undefined
        ? 'missing credentials: send x-api-key or Authorization: Bearer'
        : 'invalid credentials',
    );
  }
  return info.label;
}

/** Ban and rate limit for a key label; throws 403 ACCOUNT_BANNED or 429 TOO_MANY_REQUESTS. */
export function admit(ctx: SimContext, keyLabel: string): void {
  if (ctx.state.keyByLabel(keyLabel)?.banned) {
    throw new SimError(403, 'ACCOUNT_BANNED', 'this account is suspended');
  }
  if (ctx.limiter) {
    const d = ctx.limiter.hit(keyLabel);
    if (!d.ok) {
      throw new SimError(429, 'TOO_MANY_REQUESTS', 'rate limit exceeded', undefined, {
        'retry-after': String(d.retryAfterS),
      });
    }
  }
}
