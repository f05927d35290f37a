import { Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';

/**
 * A referenced model or null, in the one form strict OpenAPI 3.0 validators honour: `nullable` beside a
 * `$ref` or inside an `allOf` is ignored (the referenced schema still refuses null), so null is a second
 * alternative of its own.
 */
export function nullableRefSchema(ref: Record<string, unknown>) {
  return { anyOf: [ref, NULL_ONLY] };
}

/** OpenAPI 3.0 has no null type: a nullable schema whose only value is null. */
const NULL_ONLY = { type: 'object', nullable: true, enum: [null] };

/** A DTO property holding `model` or null. */
export function ApiNullableRefProperty(model: Type<unknown>, options: Pick<ApiPropertyOptions, 'description'> = {}): PropertyDecorator {
  const property = ApiProperty({ ...nullableRefSchema({ $ref: getSchemaPath(model) }), ...options });
  return (target, key) => {
    // The schema names the model only by reference: register it on the class, where Swagger looks for extra models.
    ApiExtraModels(model)(target.constructor);
    property(target, key);
  };
}
