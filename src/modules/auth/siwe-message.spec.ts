import { SiweMessage } from 'siwe';
import { formatSiweMessage, nonceOfMessage } from './siwe-message';

describe(formatSiweMessage.name, () => {
  const fields = {
    domain: 'portal.example.com:8443',
    address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    statement: 'Sign in to the developer portal. This signature cannot move funds, place orders or approve builder fees.',
    uri: 'https://portal.example.com:8443/portal',
    chainId: 42161,
    nonce: '9f86d081884c7d659a2feaa0c55ad015',
    issuedAt: new Date('2026-11-25T12:00:00.000Z'),
    expiresAt: new Date('2026-11-25T12:05:00.000Z'),
  };

  it('writes text that an independent EIP-4361 parser reads back field for field', () => {
    const parsed = new SiweMessage(formatSiweMessage(fields));
    expect(parsed).toMatchObject({
      domain: fields.domain,
      address: fields.address,
      statement: fields.statement,
      uri: fields.uri,
      version: '1',
      chainId: 42161,
      nonce: fields.nonce,
      issuedAt: '2026-11-25T12:00:00.000Z',
      expirationTime: '2026-11-25T12:05:00.000Z',
    });
  });

  it('finds the nonce again, and none in text without a nonce line', () => {
    expect(nonceOfMessage(formatSiweMessage(fields))).toBe(fields.nonce);
    expect(nonceOfMessage('Nonce: short')).toBeUndefined();
    expect(nonceOfMessage('hello')).toBeUndefined();
  });
});
