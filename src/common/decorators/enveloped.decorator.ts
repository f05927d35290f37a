import { METHOD_METADATA } from '@nestjs/common/constants';
import { JsonText } from '../http/json-text';

export interface Envelope<T> {
  code: '0';
  msg: 'success';
  data: T;
}

/**
 * Class decorator: every route handler of the controller returns the contract envelope
 * {code:"0", msg:"success", data}. Billing needs nothing here: admission already charged the call, and
 * a failure is refunded by the error-envelope filter.
 *
 * Why not a global interceptor: Nest 11 wraps every step of an interceptor chain in AsyncResource.bind,
 * which on Node 20 costs more than the rest of a cheap route together (measured in docs/benchmarks.md).
 * Wrapping each handler once, when the class is defined, gives the same single place for the rule at
 * the price of one extra async call per request.
 */
export function Enveloped(): ClassDecorator {
  return (target) => {
    const proto = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const original = proto[name];
      if (name === 'constructor' || typeof original !== 'function' || Reflect.getMetadata(METHOD_METADATA, original) === undefined) continue;
      const handler = original as (...args: unknown[]) => unknown;
      const wrapped = async function (this: unknown, ...args: unknown[]): Promise<Envelope<unknown> | string> {
        const data = await handler.apply(this, args);
        // Already serialised (see JsonText): the envelope's text, built once per value.
        if (data instanceof JsonText) return data.enveloped();
        return { code: '0', msg: 'success', data: data ?? null };
      };
      // Route, Swagger, guard and parameter metadata live on the handler function itself: carry all of it over.
      for (const key of Reflect.getMetadataKeys(original)) Reflect.defineMetadata(key, Reflect.getMetadata(key, original), wrapped);
      Object.defineProperty(wrapped, 'name', { value: name });
      proto[name] = wrapped;
    }
  };
}
