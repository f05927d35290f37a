import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { WalletAddress } from '../../../common/validation/wallet-address.decorator';

const EXAMPLE_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

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
