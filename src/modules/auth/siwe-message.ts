/** What the server puts into a Sign-In with Ethereum challenge (EIP-4361). */
export interface SiweFields {
  domain: string;
  /** EIP-55 checksummed, as the standard requires. */
  address: string;
  statement: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * The EIP-4361 text, fields in the order its ABNF fixes. The server stores exactly this text under its
 * nonce, and sign-in compares the submitted message with it byte for byte: that one comparison binds the
 * domain, URI, chain id, nonce and expiry, so none of them is parsed back out of client input.
 */
export function formatSiweMessage(fields: SiweFields): string {
  return [
    `${fields.domain} wants you to sign in with your Ethereum account:`,
    fields.address,
    '',
    fields.statement,
    '',
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
    `Expiration Time: ${fields.expiresAt.toISOString()}`,
  ].join('\n');
}

const NONCE_LINE = /^Nonce: ([A-Za-z0-9]{8,64})$/m;

/** The nonce a challenge names, to find the stored one; undefined when the text names none. */
export function nonceOfMessage(message: string): string | undefined {
  return NONCE_LINE.exec(message)?.[1];
}
