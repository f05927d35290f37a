import { Transform } from 'class-transformer';
import { IsString, Matches } from 'class-validator';
import { isAddress } from 'ethers';

const LOWER_CASE_ADDRESS = /^0x[0-9a-f]{40}$/;

/** The address lower-cased when it is valid (all lower, all upper, or a correct EIP-55 checksum); anything else as given. */
function toLowerWhenValid(value: unknown): unknown {
  return typeof value === 'string' && isAddress(value) ? value.toLowerCase() : value;
}

/**
 * An address in any case a wallet may give it, lower-cased once it is valid: all lower or all upper case,
 * or mixed case that is a correct EIP-55 checksum. Anything else stays as sent, for the pattern to refuse.
 * With `each`, every element of an array is checked instead.
 */
export function WalletAddress({ each = false }: { each?: boolean } = {}) {
  const transform = ({ value }: { value: unknown }) => (each && Array.isArray(value) ? value.map(toLowerWhenValid) : toLowerWhenValid(value));
  const suffix = each ? ' (each)' : '';
  return (target: object, property: string) => {
    Transform(transform)(target, property);
    IsString({ each, message: `${property} must be a string${suffix}` })(target, property);
    Matches(LOWER_CASE_ADDRESS, { each, message: `${property} must be 0x and 40 hex digits${suffix}; in mixed case, a valid EIP-55 checksum` })(
      target,
      property,
    );
  };
}
