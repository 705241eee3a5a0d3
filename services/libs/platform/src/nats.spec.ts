import { jest } from '@jest/globals';
import { ServerNats } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { Nats, NatsServer } from './nats.js';

/** The protected lookup, reachable for the test. */
const routeOf = (server: ServerNats, pattern: string): string =>
  (server as unknown as { getRouteFromPattern(p: string): string }).getRouteFromPattern(pattern);

const connection = { subscribe: jest.fn(), options: {} } as unknown as NatsConnection;
const shared = new Nats(connection);
const server = () => new NatsServer(() => shared, 'screening');

describe('NatsServer', () => {
  it('routes plain and JSON patterns as Nest does', () => {
    const nest = new ServerNats({});
    const routed = server();
    for (const pattern of ['screening.v1.screen', '{"cmd":"sum","b":1}', '42']) {
      expect(routeOf(routed, pattern)).toBe(routeOf(nest, pattern));
      expect(routeOf(routed, pattern)).toBe(routeOf(nest, pattern));
    }
  });

  it('works a subject out once: later messages do not parse it again', () => {
    const routed = server();
    routeOf(routed, 'screening.v1.screen');
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(routeOf(routed, 'screening.v1.screen')).toBe('screening.v1.screen');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it("listens on the process's shared connection, in the service's queue group", async () => {
    const listening = server();
    expect(await listening.createNatsClient()).toBe(connection);
    expect((listening as unknown as { options: { queue: string } }).options).toMatchObject({ queue: 'screening' });
  });
});
