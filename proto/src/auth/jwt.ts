import { z } from 'zod';

/** Vigil access tokens are RS256 JWTs: verifiable by passport-jwt/jsonwebtoken and jose alike. */
export const ACCESS_TOKEN_ALGORITHM = 'RS256';

export const jwkSchema = z.object({
  kty: z.literal('RSA'),
  kid: z.string(),
  use: z.literal('sig'),
  alg: z.literal(ACCESS_TOKEN_ALGORITHM),
  n: z.string(),
  e: z.string(),
});

/** Reply to `auth.v1.jwks`: everything a verifier needs, so nothing is configured twice. */
export const jwksReplySchema = z.object({
  keys: z.array(jwkSchema),
  issuer: z.string(),
  audience: z.string(),
  algorithms: z.array(z.literal(ACCESS_TOKEN_ALGORITHM)),
});

export type Jwk = z.infer<typeof jwkSchema>;
export type JwksReply = z.infer<typeof jwksReplySchema>;
