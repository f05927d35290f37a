import { IsDefined } from 'class-validator';

/**
 * A parameter the request must carry. Runs before the parameter's other validators (class-validator checks
 * IsDefined first), so a missing `coin` is `coin: is required`, not `coin: must be a string`.
 */
export function RequiredParam(): PropertyDecorator {
  return IsDefined({ message: ({ property }) => `${property} is required` });
}
