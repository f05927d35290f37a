import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { getAddress } from 'ethers';
import { WalletAddress } from './wallet-address.decorator';

class One {
  @WalletAddress()
  address: unknown;
}

class Many {
  @WalletAddress({ each: true })
  addresses: unknown;
}

const LOWER = '0x8ba1f109551bd432803012645ac136ddd64dba72';
const CHECKSUMMED = getAddress(LOWER);
const BAD_CHECKSUM = CHECKSUMMED.replace('B', 'b');

function check<T extends object>(cls: new () => T, plain: object): { value: T; problems: string[] } {
  const value = plainToInstance(cls, plain);
  return { value, problems: validateSync(value).flatMap((e) => Object.values(e.constraints ?? {})) };
}

describe(WalletAddress.name, () => {
  it('lower-cases an address in lower, upper or checksummed case', () => {
    for (const address of [LOWER, `0x${LOWER.slice(2).toUpperCase()}`, CHECKSUMMED]) {
      expect(check(One, { address })).toEqual({ value: { address: LOWER }, problems: [] });
    }
  });

  it('refuses a mixed-case address whose checksum is wrong, a short one and a non-string', () => {
    expect(BAD_CHECKSUM).not.toBe(CHECKSUMMED);
    for (const address of [BAD_CHECKSUM, '0x1234', 42]) {
      expect(check(One, { address }).problems.join()).toContain('address must be 0x and 40 hex digits');
    }
  });

  it('with each, lower-cases every element and refuses an array holding one bad address', () => {
    expect(check(Many, { addresses: [CHECKSUMMED, LOWER] })).toEqual({ value: { addresses: [LOWER, LOWER] }, problems: [] });
    expect(check(Many, { addresses: [LOWER, BAD_CHECKSUM] }).problems.join()).toContain('(each)');
  });
});
