import { Body, Delete, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { BackendApiController } from '../access/backend-api.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import { WalletPrincipal } from '../access/principal';
import { MAX_ACTIVE_KEYS } from '../account/account-admin.service';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyDto, CreatedApiKeyDto, CreateApiKeyDto } from './dto/api-key.dto';

/** A key id path parameter: a UUID, or 400 naming `id`. */
/** What ParseUUIDPipe accepts by default (any version): 8-4-4-4-12 hex digits, any case. */
const KEY_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function keyIdPipe(): ParseUUIDPipe {
  return new ParseUUIDPipe({ exceptionFactory: () => AppError.validation('id', 'must be a key id (a UUID)') });
}

@BackendApiController('keys', 'Backend: API keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: 'The wallet’s API keys, newest first, revoked ones included' })
  @ApiEnvelope(ApiKeyDto, { isArray: true, open: true })
  list(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.keys.list(wallet);
  }

  @Post()
  @ApiOperation({ summary: `A new API key; its plaintext is in this answer only. At most ${MAX_ACTIVE_KEYS} active keys per account` })
  @ApiEnvelope(CreatedApiKeyDto, { status: 201, open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'name is missing, empty or too long', { open: true })
  @ApiErrorResponse(403, [ErrorCode.FORBIDDEN], `The account already has ${MAX_ACTIVE_KEYS} active keys; revoke one first`, { open: true })
  create(@CurrentPrincipal() wallet: WalletPrincipal, @Body() { name }: CreateApiKeyDto) {
    return this.keys.create(wallet, name);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke one of the wallet’s keys: refused (401) on every replica within 5 seconds. Revoking twice answers the same' })
  @ApiParam({
    name: 'id',
    description: 'The key id (a UUID)',
    schema: { type: 'string', format: 'uuid', pattern: KEY_ID.source, example: '3f1c8a8e-5d0b-4f7e-9a51-2b0c7f2f9a10' },
  })
  @ApiEnvelope(ApiKeyDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'id is not a UUID', { open: true })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], 'No such key among the wallet’s own', { open: true })
  revoke(@CurrentPrincipal() wallet: WalletPrincipal, @Param('id', keyIdPipe()) id: string) {
    return this.keys.revoke(wallet, id);
  }
}
