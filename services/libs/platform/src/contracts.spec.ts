import { PATTERN_METADATA } from '@nestjs/microservices/constants.js';
import { contract, event } from '@vigil/proto';
import { z } from 'zod';
import { Handles, OnEvent, checkReply } from './contracts.js';
import { DomainError } from './errors.js';

const greet = contract(
  'test.v1.greet',
  z.object({ name: z.string().trim().min(1) }),
  z.object({ greeting: z.string() }),
);
const seen = event('test.v1.seen', z.object({ id: z.string() }));

class Handler {
  received: unknown[] = [];

  @Handles(greet, 'greeting request')
  greet(request: { name: string }) {
    this.received.push(request);
    return request.name === 'broken'
      ? ({ nope: true } as unknown as { greeting: string })
      : { greeting: `hello ${request.name}`, extra: 1 };
  }

  @OnEvent(seen)
  seen(payload: { id: string }) {
    this.received.push(payload);
  }
}

/** What Nest calls: the wrapped method, which always answers a promise. */
const greetOf = (sut: Handler) => (request: unknown) =>
  (sut.greet as unknown as (r: unknown) => Promise<unknown>).call(sut, request);

describe('contracts', () => {
  it('parses the request before the handler runs and lets a valid reply through unchanged', async () => {
    const sut = new Handler();
    await expect(greetOf(sut)({ name: '  Ada ' })).resolves.toEqual({ greeting: 'hello Ada', extra: 1 });
    expect(sut.received).toEqual([{ name: 'Ada' }]);
  });

  it('refuses a request that breaks the contract without running the handler', async () => {
    const sut = new Handler();
    const error = await greetOf(sut)({ name: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The greeting request is invalid.',
      errors: [{ pointer: '/name' }],
    });
    expect(sut.received).toEqual([]);
  });

  it('never sends a reply that breaks the contract', async () => {
    await expect(greetOf(new Handler())({ name: 'broken' })).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(() => checkReply(greet, { greeting: 42 }, 'received')).toThrow(DomainError);
  });

  it('registers the subject for Nest', () => {
    expect(Reflect.getMetadata(PATTERN_METADATA, Handler.prototype.greet)).toEqual([greet.subject]);
    expect(Reflect.getMetadata(PATTERN_METADATA, Handler.prototype.seen)).toEqual([seen.subject]);
  });

  it('drops a malformed event and delivers a valid one', async () => {
    const sut = new Handler();
    await (sut.seen as (payload: unknown) => Promise<void>)({ id: 7 });
    await sut.seen({ id: 'e1' });
    expect(sut.received).toEqual([{ id: 'e1' }]);
  });
});
