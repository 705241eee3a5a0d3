import { jest } from '@jest/globals';
import { ServerNats } from '@nestjs/microservices';
import { RoutedServerNats, natsServerOptions } from './nats.js';

/** The protected lookup, reachable for the test. */
const routeOf = (server: ServerNats, pattern: string): string =>
  (server as unknown as { getRouteFromPattern(p: string): string }).getRouteFromPattern(pattern);

describe('RoutedServerNats', () => {
  it('routes plain and JSON patterns as Nest does', () => {
    const nest = new ServerNats({});
    const routed = new RoutedServerNats({});
    for (const pattern of ['screening.v1.screen', '{"cmd":"sum","b":1}', '42']) {
      expect(routeOf(routed, pattern)).toBe(routeOf(nest, pattern));
      expect(routeOf(routed, pattern)).toBe(routeOf(nest, pattern));
    }
  });

  it('works a subject out once: later messages do not parse it again', () => {
    const routed = new RoutedServerNats({});
    routeOf(routed, 'screening.v1.screen');
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(routeOf(routed, 'screening.v1.screen')).toBe('screening.v1.screen');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('is the strategy every service listens with, in its queue group', () => {
    const { strategy } = natsServerOptions('nats://127.0.0.1:4222', 'screening');
    expect(strategy).toBeInstanceOf(RoutedServerNats);
    expect((strategy as unknown as { options: { queue: string; name: string } }).options).toMatchObject({
      queue: 'screening',
      name: 'vigil-screening',
    });
  });
});
