import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DatabaseModule, PlatformModule, loadConfigOrExit } from '@vigil/platform';
import { authProviders } from './app.module.js';
import { envSchema } from './env.js';
import { DemoSeeder } from './seed/demo.seeder.js';

// `node dist/src/seed.js`: run after migrate.js. Prints one JSON line (DemoData) on
// stdout and exits 0; on failure prints the reason on stderr and exits 1.
const config = loadConfigOrExit('auth', envSchema);

@Module({
  imports: [
    DatabaseModule.forRoot({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA }),
    // The providers' graph needs RpcClient; seeding publishes nothing, but npm start and the tests run it with NATS up.
    PlatformModule.forRoot({ service: 'auth-seed', identity: 'auth', config }),
  ],
  providers: [...authProviders(config), DemoSeeder],
})
class SeedModule {}

const app = await NestFactory.createApplicationContext(SeedModule, { logger: false });
try {
  const data = await app.get(DemoSeeder).run();
  process.stdout.write(`${JSON.stringify(data)}\n`);
  await app.close();
  process.exit(0);
} catch (error) {
  process.stderr.write(`[auth] seeding failed: ${error instanceof Error ? error.message : String(error)}\n`);
  await app.close().catch(() => undefined);
  process.exit(1);
}
