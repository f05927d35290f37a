import { randomInt } from 'node:crypto';

/** Crockford's base-32 digits: no I, L, O or U, so a code read aloud or copied by hand stays unambiguous. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 10;

/** What a referral code looks like once upper-cased (codes the database gave existing rows are 12 hex digits). */
export const REFERRAL_CODE_PATTERN = /^[0-9A-Z]{8,16}$/;

/** 10 digits from the CSPRNG: 2^50 codes, so two of a million accounts sharing one is a 1-in-2,000 event (the unique index refuses it). */
export function generateReferralCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}
