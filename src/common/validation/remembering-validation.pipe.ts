import { ArgumentMetadata, Type, ValidationPipe } from '@nestjs/common';
import { BoundedMap } from '../memo/bounded-map';
import { nulCharacterError } from './nul-character';
import { queryShapeErrors, queryShapeOf } from './query-shape';
import { validationExceptionFactory } from './validation-exception.factory';

/** Distinct valid query strings remembered per query DTO class. */
const REMEMBERED_QUERIES_PER_DTO = 1_000;

/**
 * Nest's ValidationPipe, remembering the query DTOs it made: the same query string (a bot polling one
 * page, a dashboard refreshing, many clients on the first page of a coin) gets the same instance back
 * instead of another pass of class-transformer and class-validator, which were the largest single cost
 * of a holders page (docs/benchmarks.md). A DTO is a pure function of its query string,
 * so the answer is the same. Remembered instances are frozen, deeply, since every such request shares
 * one. Only valid queries are remembered: an invalid one is checked, and answered 400, every time.
 * Query DTOs also get the checks class-validator cannot make on its own (query-shape.ts): unknown names
 * that Object.prototype also has, and repeated parameters.
 * Bodies, params and custom parameters go through the ValidationPipe as they are. Every query, path and
 * body value is first checked for NUL characters (nul-character.ts): this pipe is where they all pass.
 */
export class RememberingValidationPipe extends ValidationPipe {
  private readonly queries = new Map<Type<unknown>, BoundedMap<string, object>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    if (metadata.type !== 'query' || metadata.data !== undefined || !metatype || !this.toValidate(metadata)) {
      const nul = nulCharacterError(value, metadata);
      if (nul) throw nul;
      return super.transform(value, metadata);
    }
    let remembered = this.queries.get(metatype);
    if (!remembered) {
      remembered = new BoundedMap(REMEMBERED_QUERIES_PER_DTO);
      this.queries.set(metatype, remembered);
    }
    // The adapter's query object for this query string: the same string gives the same text.
    const key = JSON.stringify(value);
    const known = remembered.get(key);
    if (known) return known;
    // After the lookup: only a query that passed these checks is ever remembered.
    const nul = nulCharacterError(value, metadata);
    if (nul) throw nul;
    const refused = queryShapeErrors(value, queryShapeOf(metatype));
    if (refused.length > 0) throw await this.exceptionFactory(refused);
    const dto: unknown = await super.transform(value, metadata);
    return typeof dto === 'object' && dto !== null ? remembered.set(key, deepFreeze(dto)) : dto;
  }
}

function deepFreeze<T extends object>(value: T): T {
  for (const field of Object.values(value)) {
    if (typeof field === 'object' && field !== null && !Object.isFrozen(field)) deepFreeze(field as object);
  }
  return Object.freeze(value);
}

/** The pipe every route's parameters go through (configureApp), with the options the app runs on. */
export function createAppValidationPipe(): RememberingValidationPipe {
  return new RememberingValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: true,
    exceptionFactory: validationExceptionFactory,
  });
}
