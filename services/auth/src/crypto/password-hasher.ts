import { Inject, Injectable } from '@nestjs/common';
import { hash, verify, type Options } from '@node-rs/argon2';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { COMMON_PASSWORDS } from './common-passwords.js';

// @node-rs/argon2 exports Algorithm as a const enum, which isolatedModules cannot import.
const ARGON2ID = 2 as NonNullable<Options['algorithm']>;

@Injectable()
export class PasswordHasher {
  private readonly options: Options;
  private dummyHash: Promise<string> | undefined;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.options = { algorithm: ARGON2ID, memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, parallelism: 1 };
  }

  hash(password: string): Promise<string> {
    return hash(password, this.options);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /**
   * Spends the same work as a real verification, so an unknown email or a
   * Google-only account answers in the same time as a wrong password.
   */
  async burn(password: string): Promise<false> {
    this.dummyHash ??= this.hash('vigil-timing-equaliser');
    await this.verify(await this.dummyHash, password);
    return false;
  }

  isCommon(password: string): boolean {
    return COMMON_PASSWORDS.has(password.toLowerCase());
  }
}
