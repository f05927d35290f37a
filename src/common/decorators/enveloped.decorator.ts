import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { METHOD_METADATA, PARAMTYPES_METADATA } from '@nestjs/common/constants';
import { requestState, RequestState } from '../http/request-state';

export interface Envelope<T> {
  code: '0';
  msg: 'success';
  data: T;
}

/** The request's pipeline state, handed to the wrapped handler as one extra trailing argument. */
const PipelineState = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestState => requestState(ctx.switchToHttp().getRequest()));

/**
 * Class decorator: every route handler of the controller returns the contract envelope
 * {code:"0", msg:"success", data}, and a handler that returns settles its call's credit hold as billed.
 *
 * Why not a global interceptor: Nest 11 wraps every step of an interceptor chain in AsyncResource.bind,
 * which on Node 20 costs more than the rest of a cheap route together (measured in docs/benchmarks.md).
 * Wrapping each handler once, when the class is defined, gives the same single place for the rule at
 * the price of one extra async call per request. Failures are settled by the error-envelope filter.
 */
export function Enveloped(): ClassDecorator {
  return (target) => {
    const proto = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const original = proto[name];
      if (name === 'constructor' || typeof original !== 'function' || Reflect.getMetadata(METHOD_METADATA, original) === undefined) continue;
      const declared: unknown[] = Reflect.getMetadata(PARAMTYPES_METADATA, proto, name) ?? [];
      const stateIndex = Math.max(declared.length, original.length);
      PipelineState()(proto, name, stateIndex);
      const handler = original as (...args: unknown[]) => unknown;
      const wrapped = async function (this: unknown, ...args: unknown[]): Promise<Envelope<unknown>> {
        const data = await handler.apply(this, args);
        (args[stateIndex] as RequestState | undefined)?.onSuccess?.();
        return { code: '0', msg: 'success', data: data ?? null };
      };
      // Route, Swagger and guard metadata live on the handler function itself: carry all of it over.
      for (const key of Reflect.getMetadataKeys(original)) Reflect.defineMetadata(key, Reflect.getMetadata(key, original), wrapped);
      Object.defineProperty(wrapped, 'name', { value: name });
      proto[name] = wrapped;
    }
  };
}
