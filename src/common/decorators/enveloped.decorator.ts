import { METHOD_METADATA } from '@nestjs/common/constants';
import { JsonText } from '../http/json-text';

export interface Envelope<T> {
  code: '0';
  msg: 'success';
  data: T;
}

interface RequestParam {
  index: number;
  fromRequest: (req: unknown) => unknown;
}

const REQUEST_PARAM = Symbol('envelopedRequestParam');

/**
 * For a parameter decorator that declares the handler parameter as the request (`Req()`): the wrapper of
 * `@Enveloped` hands the handler `fromRequest(req)` in its place. Lets an area (e.g. @CurrentCaller) shape
 * the argument without common knowing what it is.
 */
export function handlerParamFromRequest(target: object, method: string | symbol, index: number, fromRequest: (req: unknown) => unknown): void {
  Reflect.defineMetadata(REQUEST_PARAM, { index, fromRequest } satisfies RequestParam, target.constructor, method);
}

function requestParamOf(controller: object, method: string): RequestParam | undefined {
  return Reflect.getMetadata(REQUEST_PARAM, controller.constructor, method) as RequestParam | undefined;
}

function envelope(data: unknown): Envelope<unknown> | Buffer {
  // Already serialised (see JsonText): the envelope's bytes, made once per value.
  if (data instanceof JsonText) return data.enveloped();
  return { code: '0', msg: 'success', data: data ?? null };
}

/**
 * Class decorator: every route handler of the controller returns the contract envelope
 * {code:"0", msg:"success", data}, and gets its request-shaped argument (e.g. @CurrentCaller's) as
 * handlerParamFromRequest says. Billing needs nothing here: admission already charged the call, and a
 * failure is refunded by the error-envelope filter.
 *
 * Why not a global interceptor: Nest 11 wraps every step of an interceptor chain in AsyncResource.bind,
 * which on Node 20 costs more than the rest of a cheap route together (measured in docs/benchmarks.md).
 * Wrapping each handler once, when the class is defined, gives the same single place for the rule at
 * the price of one extra function call per request.
 */
export function Enveloped(): ClassDecorator {
  return (target) => {
    const proto = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const original = proto[name];
      if (name === 'constructor' || typeof original !== 'function' || Reflect.getMetadata(METHOD_METADATA, original) === undefined) continue;
      const handler = original as (...args: unknown[]) => unknown;
      const requestParam = requestParamOf(proto, name);
      const wrapped = function (this: unknown, ...args: unknown[]): Envelope<unknown> | Buffer | Promise<Envelope<unknown> | Buffer> {
        if (requestParam !== undefined) args[requestParam.index] = requestParam.fromRequest(args[requestParam.index]);
        const data = handler.apply(this, args);
        // A handler that answers synchronously is enveloped without a promise: Nest awaits whatever it gets.
        return data instanceof Promise ? data.then(envelope) : envelope(data);
      };
      // Route, Swagger, guard and parameter metadata live on the handler function itself: carry all of it over.
      for (const key of Reflect.getMetadataKeys(original)) Reflect.defineMetadata(key, Reflect.getMetadata(key, original), wrapped);
      Object.defineProperty(wrapped, 'name', { value: name });
      proto[name] = wrapped;
    }
  };
}
