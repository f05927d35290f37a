import { applyDecorators, Header } from '@nestjs/common';

/**
 * Response data serialised to JSON once, for a value many requests are answered with (the mids map,
 * reloaded once a second; a cached holders page): each request then skips JSON.stringify, which for the
 * 43-coin map cost more than the rest of the handler. A handler returns it in place of the object;
 * @Enveloped answers with the envelope's bytes (also made once per value) and the route sends them as
 * JSON. Bytes rather than text: a string body is encoded to UTF-8, measured and copied again for every
 * response, a Buffer goes to the socket as it is (about a tenth of a holders page's CPU).
 */
export class JsonText {
  private envelopeBytes?: Buffer;

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

  /** The success envelope around this data, as the bytes of its JSON text. */
  enveloped(): Buffer {
    return (this.envelopeBytes ??= Buffer.from(`{"code":"0","msg":"success","data":${this.json}}`, 'utf8'));
  }
}

/**
 * For routes that answer JsonText: a byte body is otherwise sent as application/octet-stream by both
 * adapters. Errors on the route are JSON too, so the header holds for every answer.
 */
export function AnswersJsonText(): MethodDecorator {
  return applyDecorators(Header('Content-Type', 'application/json; charset=utf-8'));
}
