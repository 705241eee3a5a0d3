import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { contracts } from '@vigil/proto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from './errors.js';
import { TestStack, startNats } from './testing.js';

// The harness every service's integration tests stand on: what it promises them, checked here.
describe('the integration harness', () => {
  // Processes are spawned, killed and restarted here; a loaded CI host takes seconds per step.
  jest.setTimeout(30_000);

  it('starts a private nats-server with JetStream and removes its store once the server has exited', async () => {
    const nats = await startNats();
    expect(existsSync(nats.store)).toBe(true);
    const info = await (await jetstreamManager(nats.nc)).getAccountInfo();
    expect(info.limits).toBeDefined();
    await nats.stop();
    expect(existsSync(nats.store)).toBe(false);
    await expect(connect({ ...nats.options(), timeout: 500, reconnect: false })).rejects.toThrow();
  }, 20_000);

  describe('a stack', () => {
    const stack = new TestStack(tmpdir());
    let dir: string;
    let script: string;

    beforeAll(async () => {
      await stack.startNats();
      dir = await mkdtemp(join(tmpdir(), 'vigil-harness-spec-'));
      script = join(dir, 'service.mjs');
      // A stand-in service: says who it is, then stays up until signalled. One string, not
      // console.log's arguments: with FORCE_COLOR inherited from jest a number is printed in colour.
      await writeFile(script, `console.log(\`up \${process.pid} \${process.env.DB_SCHEMA}\`); setInterval(() => {}, 1000);`);
    });

    afterAll(async () => {
      await stack.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('spawns with the stack environment, kills -9 and restarts the same process under its name', async () => {
      const first = stack.spawn('svc', {}, { name: 'svc', script });
      await first.waitForLog(new RegExp(`up ${first.child.pid} ${stack.prefix}_svc`));
      await stack.kill('svc');
      expect(first.child.signalCode).toBe('SIGKILL');
      const second = await stack.restart('svc');
      await second.waitForLog(/^up \d+/);
      expect(second.child.pid).not.toBe(first.child.pid);
      expect(stack.process('svc')).toBe(second);
    });

    it('fails a readiness wait early, with the log, when the process it waits on dies', async () => {
      const dying = stack.spawn('dies', {}, { name: 'dies', script: join(dir, 'missing.mjs') });
      await expect(stack.waitForHealth('auth', dying, 10_000)).rejects.toThrow(/dies exited .*missing\.mjs/s);
    });

    it('answers a request with no responder as a DomainError', async () => {
      const error = await stack.request(contracts.health('auth'), {}, 500).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
    });

    it('drops the schemas it handed out', async () => {
      const other = new TestStack(tmpdir());
      await other.pool().query(`CREATE SCHEMA "${other.schema('owner')}"`);
      await other.sql('owner', 'CREATE TABLE t (n int)');
      expect(await other.sql('owner', 'SELECT count(*)::int AS n FROM t')).toEqual([{ n: 0 }]);
      await other.stop();
      const { rows } = await stack
        .pool()
        .query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [other.schema('owner')]);
      expect(rows).toEqual([]);
    });
  });
});
