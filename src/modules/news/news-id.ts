import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

/** The id column's bound (PostgreSQL integer), stated in the OpenAPI document and in the 400. */
export const NEWS_ID_MAX = 2_147_483_647;

/** The path's item id: plain decimal digits naming a positive integer the id column can hold, else 400 naming `id`. */
export function parseNewsId(text: string): number {
  const id = /^[0-9]{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(id) || id < 1 || id > NEWS_ID_MAX)
    throw new AppError(ErrorCode.VALIDATION_ERROR, `id: must be an integer from 1 to ${NEWS_ID_MAX}, got ${JSON.stringify(text.slice(0, 32))}`);
  return id;
}
