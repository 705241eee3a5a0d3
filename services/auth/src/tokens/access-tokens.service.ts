import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import { ACCESS_TOKEN_ALGORITHM, accessTokenClaimsSchema, type AccessTokenClaims, type JwksReply, type Jwk } from '@vigil/proto';
import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import { SecretBox } from '../crypto/secret-box.js';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { SigningKeysRepository, type StoredKey } from './signing-keys.repository.js';

type LoadedKey = { kid: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: Jwk };

export type AccessTokenSubject = Omit<AccessTokenClaims, 'iss' | 'aud' | 'exp' | 'iat' | 'jti'>;

/**
 * Signs and verifies Vigil access tokens (RS256). The key pair lives in Postgres
 * so every replica signs with the same key and restarts keep tokens valid; other
 * services verify locally with the public key from `auth.v1.jwks`.
 */
@Injectable()
export class AccessTokens implements OnModuleInit {
  private keys: LoadedKey[] = [];

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly repository: SigningKeysRepository,
    private readonly box: SecretBox,
  ) {}

  async onModuleInit() {
    this.keys = await Promise.all((await this.repository.ensure(() => this.generate(), ACCESS_TOKEN_ALGORITHM)).map((k) => this.load(k)));
  }

  get ttlSeconds(): number {
    return this.config.ACCESS_TOKEN_TTL_SECONDS;
  }

  async sign(subject: AccessTokenSubject): Promise<{ token: string; expiresAt: number }> {
    const key = this.keys[0]!;
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = now + this.config.ACCESS_TOKEN_TTL_SECONDS;
    const token = await new SignJWT({ ...subject })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALGORITHM, kid: key.kid, typ: 'JWT' })
      .setIssuer(this.config.JWT_ISSUER)
      .setAudience(this.config.JWT_AUDIENCE)
      .setSubject(subject.sub)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(key.privateKey);
    return { token, expiresAt };
  }

  /** Verifies signature, algorithm, issuer, audience and expiry; anything else is "not signed in". */
  async verify(token: string): Promise<AccessTokenClaims> {
    const unauthenticated = () => new DomainError('UNAUTHENTICATED', 'Invalid or expired access token.');
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw unauthenticated();
    }
    let key = this.keys.find((k) => k.kid === kid);
    if (!key && kid) {
      // Another replica may have rotated in a key this one has not loaded yet.
      this.keys = await Promise.all((await this.repository.active()).map((k) => this.load(k)));
      key = this.keys.find((k) => k.kid === kid);
    }
    if (!key) throw unauthenticated();
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        algorithms: [ACCESS_TOKEN_ALGORITHM],
        issuer: this.config.JWT_ISSUER,
        audience: this.config.JWT_AUDIENCE,
        requiredClaims: ['exp', 'iat', 'sub', 'sid'],
      });
      return accessTokenClaimsSchema.parse(payload);
    } catch {
      throw unauthenticated();
    }
  }

  jwks(): JwksReply {
    return {
      keys: this.keys.map((k) => k.publicJwk),
      issuer: this.config.JWT_ISSUER,
      audience: this.config.JWT_AUDIENCE,
      algorithms: [ACCESS_TOKEN_ALGORITHM],
    };
  }

  private async generate(): Promise<StoredKey> {
    const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALGORITHM, { modulusLength: 2048, extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    // The private half is stored sealed: { sealed } instead of the JWK's fields.
    const privateJwk = { sealed: this.box.seal(JSON.stringify(await exportJWK(privateKey))) } as JWK;
    return { kid, privateJwk, publicJwk: { ...publicJwk, kid, use: 'sig', alg: ACCESS_TOKEN_ALGORITHM } };
  }

  private unseal(jwk: JWK): JWK {
    const sealed = (jwk as { sealed?: unknown }).sealed;
    return typeof sealed === 'string' ? (JSON.parse(this.box.open(sealed)) as JWK) : jwk;
  }

  private async load(stored: StoredKey): Promise<LoadedKey> {
    return {
      kid: stored.kid,
      privateKey: (await importJWK(this.unseal(stored.privateJwk), ACCESS_TOKEN_ALGORITHM)) as CryptoKey,
      publicKey: (await importJWK(stored.publicJwk, ACCESS_TOKEN_ALGORITHM)) as CryptoKey,
      publicJwk: { kty: 'RSA', kid: stored.kid, use: 'sig', alg: ACCESS_TOKEN_ALGORITHM, n: String(stored.publicJwk.n), e: String(stored.publicJwk.e) },
    };
  }
}
