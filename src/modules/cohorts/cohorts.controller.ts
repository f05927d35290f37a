import { Body, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { BackendApiController } from '../access/backend-api.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import { WalletPrincipal } from '../access/principal';
import { MAX_ADDRESSES_PER_COHORT, MAX_COHORTS_PER_ACCOUNT } from './cohort-limits';
import { CohortPositionsService } from './cohort-positions.service';
import { CohortsService } from './cohorts.service';
import { CohortDto, CohortPositionDto, CohortPositionsQueryDto, CohortSummaryDto } from './dto/cohort.dto';
import { AddCohortAddressesDto, CreateCohortDto, RemoveCohortAddressesDto, RenameCohortDto } from './dto/cohort-write.dto';

/** A malformed id names no cohort of the wallet's: 404, as another wallet's would be. */
function cohortIdPipe(): ParseUUIDPipe {
  return new ParseUUIDPipe({ exceptionFactory: () => AppError.notFound('cohort') });
}

const ID_PARAM = { name: 'id', example: '3f1c8a8e-5d0b-4f7e-9a51-2b0c7f2f9a10' };
const NOT_FOUND = 'No such cohort among the wallet’s own (another wallet’s, or a malformed id)';

@BackendApiController('cohorts', 'Backend: cohorts')
export class CohortsController {
  constructor(
    private readonly cohorts: CohortsService,
    private readonly positions: CohortPositionsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The wallet’s cohorts, oldest first' })
  @ApiEnvelope(CohortSummaryDto, { isArray: true, open: true })
  list(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.cohorts.list(wallet);
  }

  @Post()
  @ApiOperation({ summary: `A new cohort, with initial members if given. At most ${MAX_COHORTS_PER_ACCOUNT} per wallet` })
  @ApiEnvelope(CohortDto, { status: 201, open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'name missing, empty, too long or taken; the cohort limit; a bad address or tag', { open: true })
  create(@CurrentPrincipal() wallet: WalletPrincipal, @Body() body: CreateCohortDto) {
    return this.cohorts.create(wallet, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One cohort with its members and their tags' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CohortDto, { open: true })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], NOT_FOUND, { open: true })
  get(@CurrentPrincipal() wallet: WalletPrincipal, @Param('id', cohortIdPipe()) id: string) {
    return this.cohorts.get(wallet, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a cohort' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CohortDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'name missing, empty, too long or taken', { open: true })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], NOT_FOUND, { open: true })
  rename(@CurrentPrincipal() wallet: WalletPrincipal, @Param('id', cohortIdPipe()) id: string, @Body() { name }: RenameCohortDto) {
    return this.cohorts.rename(wallet, id, name);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a cohort and its members (the addresses stay in the polled universe)' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CohortSummaryDto, { open: true })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], NOT_FOUND, { open: true })
  delete(@CurrentPrincipal() wallet: WalletPrincipal, @Param('id', cohortIdPipe()) id: string) {
    return this.cohorts.delete(wallet, id);
  }

  @Post(':id/addresses')
  @HttpCode(200)
  @ApiOperation({
    summary: `Add members, or replace the tags of present ones; repeating a request changes nothing. At most ${MAX_ADDRESSES_PER_COHORT} per cohort`,
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CohortDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'A bad address or tag, or the cohort would exceed its limit', { open: true })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], NOT_FOUND, { open: true })
  addMembers(@CurrentPrincipal() wallet: WalletPrincipal, @Param('id', cohortIdPipe()) id: string, @Body() body: AddCohortAddressesDto) {
    return this.cohorts.addMembers(wallet, id, body);
  }

  @Delete(':id/addresses')
  @ApiOperation({ summary: 'Remove members (a JSON body on DELETE); addresses not in the cohort are ignored' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CohortDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'A bad address, or none given', { open: true })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], NOT_FOUND, { open: true })
  removeMembers(@CurrentPrincipal() wallet: WalletPrincipal, @Param('id', cohortIdPipe()) id: string, @Body() { addresses }: RemoveCohortAddressesDto) {
    return this.cohorts.removeMembers(wallet, id, addresses);
  }

  @Get(':id/positions')
  @ApiOperation({ summary: 'The members’ perp positions in the latest market snapshot, largest value first' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(CohortPositionDto, { page: 'offset', open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'page or limit out of range', { open: true })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], NOT_FOUND, { open: true })
  positionsOf(@CurrentPrincipal() wallet: WalletPrincipal, @Param('id', cohortIdPipe()) id: string, @Query() query: CohortPositionsQueryDto) {
    return this.positions.list(wallet, id, query);
  }
}
