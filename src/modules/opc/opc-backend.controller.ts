import { Body, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { BackendApiController } from '../access/backend-api.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import { WalletPrincipal } from '../access/principal';
import { OpcConfigDto, PutOpcDto } from './dto/opc.dto';
import { OpcService } from './opc.service';

const NO_OPC = ApiErrorResponse(404, [ErrorCode.NOT_FOUND], 'The account has no OPC yet (PUT one first)', { open: true });

@BackendApiController('opc', 'Backend: OPC')
export class OpcBackendController {
  constructor(private readonly opc: OpcService) {}

  @Get()
  @ApiOperation({ summary: 'The wallet’s OPC configuration, or null' })
  @ApiEnvelope(OpcConfigDto, { open: true, nullable: true })
  get(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.opc.get(wallet.accountId);
  }

  @Put()
  @ApiOperation({ summary: 'Creates or replaces the wallet’s OPC configuration (inactive until activated)' })
  @ApiEnvelope(OpcConfigDto, { open: true })
  @ApiErrorResponse(
    400,
    [ErrorCode.VALIDATION_ERROR],
    'A field is missing or malformed; the subdomain is reserved or taken; the builder address is the service’s or another OPC’s, or changes while active (msg names the field)',
    { open: true },
  )
  put(@CurrentPrincipal() wallet: WalletPrincipal, @Body() body: PutOpcDto) {
    return this.opc.put(wallet.accountId, body);
  }

  @Post('activate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Activates the OPC: its builder’s fills are read, and its revenue and claims become readable' })
  @ApiEnvelope(OpcConfigDto, { open: true })
  @NO_OPC
  activate(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.opc.setActive(wallet.accountId, true);
  }

  @Post('deactivate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deactivates the OPC: its builder’s fills are no longer read; revenue so far is kept' })
  @ApiEnvelope(OpcConfigDto, { open: true })
  @NO_OPC
  deactivate(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.opc.setActive(wallet.accountId, false);
  }
}
