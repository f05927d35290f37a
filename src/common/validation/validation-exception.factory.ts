import { ValidationError } from 'class-validator';
import { AppError } from '../errors/app-error';

/** The first failing field, with its dotted path, becomes `field: problem` in a VALIDATION_ERROR. */
export function validationExceptionFactory(errors: ValidationError[]): AppError {
  const [path, problem] = firstProblem(errors, '') ?? ['request', 'is invalid'];
  return AppError.validation(path, problem);
}

function firstProblem(errors: ValidationError[], parent: string): [string, string] | undefined {
  for (const error of errors) {
    // A parameter without a name (`?=1`) is named as the query itself, as the public guard does.
    const path = parent ? `${parent}.${error.property}` : error.property || 'query';
    const message = Object.values(error.constraints ?? {})[0];
    if (message) {
      // class-validator starts its messages with the property name; the envelope puts the field first.
      const problem = message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message;
      return [path, problem.replace(/^property .* should not exist$/, 'is not a known parameter')];
    }
    const nested = firstProblem(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}
