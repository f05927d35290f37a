import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

const INT4_MAX = 2_147_483_647;

/** The path's item id: plain decimal digits naming a positive integer the id column can hold, else 400 naming `id`. */
export function parseNewsId(text: string): number {
  const id = /^[0-9]{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(id) || id < 1 || id > INT4_MAX)
    throw new AppError(ErrorCode.VALIDATION_ERROR, `id: must be a positive integer, got ${JSON.stringify(text.slice(0, 32))}`);
  return id;
}
