import { isAddress } from 'ethers';
import { AppError } from '../common/errors/app-error';
import { normalizeWallet } from '../modules/account/account-admin.service';

/** normalizeWallet's rule, but an error names the command's own option (`address`, not `wallet`). */
export function normalizeAddressOption(address: string): string {
  if (typeof address !== 'string' || !isAddress(address)) {
    throw AppError.validation('address', 'must be a 42-character 0x-prefixed address');
  }
  return normalizeWallet(address);
}
