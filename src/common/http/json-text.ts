import { applyDecorators, Header } from '@nestjs/common';

/**
 * Response data serialised to JSON once, for a value many requests are answered with (the mids map,
 * reloaded once a second): each request then skips JSON.stringify, which for the 43-coin map cost more
 * than the rest of the handler. A handler returns it in place of the object; @Enveloped splices it into
 * the envelope's text (also built once per value) and the route sends that text as JSON.
 */
export class JsonText {
  private envelopeText?: string;

  private constructor(readonly json: string) {}

  static of(value: unknown): JsonText {
    return new JsonText(JSON.stringify(value));
  }

  /** The success envelope around this data, as JSON text. */
  enveloped(): string {
    return (this.envelopeText ??= `{"code":"0","msg":"success","data":${this.json}}`);
  }
}

/**
 * For routes that answer JsonText: a string body is otherwise sent as text by both adapters. Errors on
 * the route are JSON too, so the header holds for every answer.
 */
export function AnswersJsonText(): MethodDecorator {
  return applyDecorators(Header('Content-Type', 'application/json; charset=utf-8'));
}
