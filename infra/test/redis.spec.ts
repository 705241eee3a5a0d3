import { jest } from '@jest/globals';
import { freePort } from '@vigil/platform/testing';
import { connect } from 'node:net';
import { ensureRedis } from '../scripts/infrastructure.mjs';

jest.setTimeout(30_000);

/** Redis's answer to PING in its wire protocol, or a rejection when nothing listens. */
function ping(url: string) {
  const { hostname, port } = new URL(url);
  return new Promise<string>((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => {
      socket.destroy();
      resolve(chunk.toString().trim());
    });
    socket.once('error', reject);
  });
}

// `npm test` gives the gateway's rate-limit tests a Redis: the one REDIS_URL names when it answers,
// else one of its own on loopback, which it stops at the end.
describe('the Redis of npm test', () => {
  it('starts one on a loopback port where none answers, and stops it', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    await expect(ping(url)).rejects.toThrow();
    const started = await ensureRedis({ url });
    try {
      expect(started.url).toBe(url);
      expect(await ping(url)).toBe('+PONG');
      // A second call finds it answering and leaves it to its owner.
      const reused = await ensureRedis({ url });
      await reused.stop();
      expect(await ping(url)).toBe('+PONG');
    } finally {
      await started.stop();
    }
    await expect(ping(url)).rejects.toThrow();
  });
});
