import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength } from 'class-validator';
import { isAddress } from 'ethers';

const EXAMPLE_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

/**
 * An address in any case a wallet may give it, lower-cased once it is valid: all lower or all upper case,
 * or mixed case that is a correct EIP-55 checksum. Anything else stays as sent, for the pattern to refuse.
 */
function WalletAddress() {
  const toLowerWhenValid = ({ value }: { value: unknown }) => (typeof value === 'string' && isAddress(value) ? value.toLowerCase() : value);
  return (target: object, property: string) => {
    Transform(toLowerWhenValid)(target, property);
    IsString()(target, property);
    Matches(/^0x[0-9a-f]{40}$/, { message: `${property} must be 0x and 40 hex digits; in mixed case, a valid EIP-55 checksum` })(target, property);
  };
}

export class LoginDto {
  @ApiProperty({ example: EXAMPLE_ADDRESS, description: 'The wallet signing in: lower case, or EIP-55 checksummed' })
  @WalletAddress()
  address: string;
}

export class SignMessageDto {
  @ApiProperty({ example: EXAMPLE_ADDRESS })
  @WalletAddress()
  address: string;

  @ApiProperty({ description: 'The message login returned, exactly as returned', maxLength: 2000 })
  @IsString()
  @MaxLength(2000)
  message: string;

  @ApiProperty({ description: 'personal_sign (EIP-191) signature of message, hex', example: `0x${'ab'.repeat(65)}`, maxLength: 4096 })
  @IsString()
  @MaxLength(4096)
  @Matches(/^0x(?:[0-9a-fA-F]{2})+$/, { message: 'signature must be 0x and an even number of hex digits' })
  signature: string;
}

export class LoginChallengeDto {
  @ApiProperty({
    description:
      'EIP-4361 (Sign-In with Ethereum) text to sign with personal_sign, unchanged: the portal domain, the address, a statement that ' +
      'the signature cannot move funds, place orders or approve builder fees, URI, chain id, nonce, issue and expiration times',
  })
  message: string;

  @ApiProperty({ example: '9f86d081884c7d659a2feaa0c55ad015', description: 'The nonce the message embeds; usable once, until the message expires' })
  nonce: string;
}

export class SessionTokenDto {
  @ApiProperty({ description: 'JWT (HS256) to send as Authorization: Bearer <token> to /api/v1 routes' })
  token: string;

  @ApiProperty({ example: '2026-11-25T13:00:00.000Z', description: 'When the token stops working; refresh before then' })
  expiresAt: string;
}

export class LogoutDto {
  @ApiProperty({ example: true })
  loggedOut: boolean;
}
