import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OpenRoute } from '../../common/auth/audience';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { Enveloped } from '../../common/decorators/enveloped.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { ApiSessionRefusal, BACKEND_API_PREFIX, WALLET_SESSION_SECURITY } from '../access/backend-api.decorator';
import { SessionRequest } from '../access/wallet-session.verifier';
import { AuthRateLimitGuard } from './auth-rate-limit.guard';
import { AuthService } from './auth.service';
import { LoginChallengeDto, LoginDto, LogoutDto, SessionTokenDto, SignMessageDto } from './dto/auth.dto';
import { JwtWalletSessionVerifier } from './jwt-wallet-session.verifier';

const RATE_LIMITED =
  'Over the auth routes’ own limit: AUTH_RATE_LIMIT_PER_IP calls a minute per client address, AUTH_RATE_LIMIT_PER_ADDRESS per wallet ' +
  '(counted on signed sign-ins and refreshes); Retry-After and X-RateLimit-* say when it opens again';

/**
 * Wallet sign-in for the backend API (contract 4.7): challenge, signed challenge for a token, refresh,
 * logout. Open routes: refresh and logout read the bearer token themselves, since a replaced token must
 * reach refresh to be recognised as reused.
 */
@ApiTags('Backend: sign-in')
@OpenRoute()
@Enveloped()
@UseGuards(AuthRateLimitGuard)
@ApiErrorResponse(429, [ErrorCode.RATE_LIMITED], RATE_LIMITED, { open: true })
@Controller(`${BACKEND_API_PREFIX}/auth`)
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: JwtWalletSessionVerifier,
  ) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'A Sign-In with Ethereum challenge for the wallet (valid 5 minutes, usable once)', security: [] })
  @ApiEnvelope(LoginChallengeDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'address is not an address, or mixed case with a wrong EIP-55 checksum', { open: true })
  @ApiErrorResponse(
    503,
    [ErrorCode.SERVICE_UNAVAILABLE],
    'AUTH_CHALLENGES_MAX (default 20,000) challenges are outstanding over every client: none is issued until one is signed in with ' +
      'or expires; Retry-After says when the oldest expires. Also the KV store not answering',
    { open: true, headers: { 'Retry-After': { description: 'Seconds until the oldest outstanding challenge expires', schema: { type: 'integer' } } } },
  )
  login(@Body() { address }: LoginDto) {
    return this.auth.login(address);
  }

  @Post('sign-message')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange the signed challenge for a session token; the first sign-in of a wallet opens its account (Free tier)',
    security: [],
  })
  @ApiEnvelope(SessionTokenDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'A field is missing or malformed; msg names it', { open: true })
  @ApiErrorResponse(
    401,
    [ErrorCode.INVALID_SIGNATURE, ErrorCode.INVALID_CHALLENGE],
    'The signature is not the address’s over this message (the challenge stays usable); or the challenge is unknown, expired, used, or not the text issued',
    { open: true },
  )
  @ApiErrorResponse(
    503,
    [ErrorCode.SERVICE_UNAVAILABLE],
    'A smart-contract wallet’s signature cannot be checked right now (the chain behind AUTH_RPC_URL did not answer); try again later',
    { open: true },
  )
  signMessage(@Body() body: SignMessageDto) {
    return this.auth.signIn(body);
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiBearerAuth(WALLET_SESSION_SECURITY)
  @ApiOperation({
    summary: 'A new token for the current one, which stops working at once on every replica',
    description:
      'Presenting a token that was already replaced ends the whole session (token reuse detection, RFC 9700), except within ' +
      'AUTH_REFRESH_GRACE_MS (10 s) of its replacement, when the same successor is answered again (a lost response).',
  })
  @ApiEnvelope(SessionTokenDto, { open: true })
  @ApiSessionRefusal()
  refresh(@Req() req: SessionRequest) {
    return this.auth.refresh(this.sessions.claimsOf(req));
  }

  @Post('logout')
  @HttpCode(200)
  @ApiBearerAuth(WALLET_SESSION_SECURITY)
  @ApiOperation({ summary: 'End the session: its token stops working at once on every replica' })
  @ApiEnvelope(LogoutDto, { open: true })
  @ApiSessionRefusal()
  async logout(@Req() req: SessionRequest): Promise<LogoutDto> {
    await this.auth.logout(this.sessions.claimsOf(req));
    return { loggedOut: true };
  }
}
