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

  /**
   * The object `{...head, [field]: <json>, ...tail}` as JSON, where `json` is text serialised before (a
   * cached page of rows): only the few fields around it are serialised per request.
   */
  static spliced(head: Record<string, unknown>, field: string, json: string, tail: Record<string, unknown>): JsonText {
    const open = JSON.stringify(head).slice(0, -1);
    const close = JSON.stringify(tail).slice(1);
    return new JsonText(`${open}${open.length > 1 ? ',' : ''}${JSON.stringify(field)}:${json}${close.length > 1 ? ',' : ''}${close}`);
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
