import { Logger } from '@nestjs/common';
import { EventPattern, MessagePattern } from '@nestjs/microservices';
import type { Contract, EventContract, ParsedRequestOf, PayloadOf, ReplyInputOf, ReplyOf } from '@vigil/proto';
import { DomainError } from './errors.js';
import { parseMessage } from './validation.js';

const logger = new Logger('Contracts');

/**
 * Checks a reply against its contract. A reply is checked, not reshaped: what the handler
 * sent is what the caller gets (a schema is a floor, so a field the schema does not name
 * still travels), and one that breaks the contract is the handler's bug, an INTERNAL error.
 */
export function checkReply<C extends Contract>(contract: C, reply: unknown, where: 'sent' | 'received'): ReplyOf<C> {
  const result = contract.reply.safeParse(reply);
  if (!result.success) {
    logger.error(`the reply ${where} on ${contract.subject} breaks its contract: ${result.error.message}`);
    throw new DomainError('INTERNAL', `The reply on ${contract.subject} did not match its contract.`);
  }
  return reply as ReplyOf<C>;
}

type HandlerOf<C extends Contract> = (request: ParsedRequestOf<C>) => ReplyInputOf<C> | Promise<ReplyInputOf<C>>;

/**
 * A NATS request handler for `contract`: the request is parsed with the contract's schema
 * before the method runs (VALIDATION_FAILED naming `what` otherwise), and the reply is checked
 * before it leaves. The method takes the parsed request and no Nest parameter decorators.
 */
export function Handles<C extends Contract>(contract: C, what = 'message') {
  return <M extends HandlerOf<C>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    const method = descriptor.value!;
    const handler = async function (this: unknown, data: unknown): Promise<ReplyInputOf<C>> {
      const request = parseMessage(contract.request, data ?? {}, what) as ParsedRequestOf<C>;
      return checkReply(contract, await method.call(this, request), 'sent') as ReplyInputOf<C>;
    };
    install(descriptor, method, handler);
    MessagePattern(contract.subject)(target, key, descriptor as PropertyDescriptor);
  };
}

/**
 * A core-NATS event consumer for `event`: a payload that breaks the schema is logged and
 * dropped (events are fire-and-forget; nobody waits for an error), a valid one reaches the method.
 */
export function OnEvent<E extends EventContract>(event: E) {
  return <M extends (payload: PayloadOf<E>) => Promise<void> | void>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    const method = descriptor.value!;
    const handler = async function (this: unknown, data: unknown): Promise<void> {
      const parsed = event.schema.safeParse(data);
      if (!parsed.success) {
        logger.warn(`ignored a malformed ${event.subject} event: ${parsed.error.message}`);
        return;
      }
      await method.call(this, parsed.data as PayloadOf<E>);
    };
    install(descriptor, method, handler);
    EventPattern(event.subject)(target, key, descriptor as PropertyDescriptor);
  };
}

/** Puts the wrapper in the method's place; decorators applied below this one stored their metadata on the original: keep it. */
function install<M>(descriptor: TypedPropertyDescriptor<M>, method: M & object, handler: object) {
  for (const metadataKey of Reflect.getMetadataKeys(method)) {
    Reflect.defineMetadata(metadataKey, Reflect.getMetadata(metadataKey, method), handler);
  }
  Object.defineProperty(handler, 'name', { value: (method as { name?: string }).name });
  descriptor.value = handler as M;
}
