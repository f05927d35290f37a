import { ApiCaller } from '../account/api-caller';
import { callState } from './call-state';
import { principalOf, walletPrincipal } from './principal';

const caller = { keyId: 'key-1', accountId: 'acc-1', walletAddress: '0xabc', tier: 'pro' } as unknown as ApiCaller;

describe('principalOf', () => {
  it("is the key holder's account on a key-pipeline request, the same object on every ask", () => {
    const req = { headers: {} };
    callState(req).caller = caller;
    const sut = principalOf(req);
    expect(sut).toEqual({ kind: 'api-key', accountId: 'acc-1', caller });
    expect(principalOf(req)).toBe(sut);
  });

  it('is the wallet session when the guard recorded one', () => {
    const req = { headers: {} };
    callState(req).principal = walletPrincipal({ accountId: 'acc-2', walletAddress: '0xAbC' });
    expect(principalOf(req)).toEqual({ kind: 'wallet-session', accountId: 'acc-2', walletAddress: '0xabc' });
  });

  it('throws on a request that has no principal (an open route)', () => {
    expect(() => principalOf({ headers: {} })).toThrow('no principal');
  });
});
