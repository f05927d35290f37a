import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { Page, toPage } from '../../common/pagination/page.dto';
import { AppConfig } from '../../config/app.config';
import { fromBaseUnits } from '../rewards/base-units';
import { ClaimsPageQueryDto, OpcClaimsPageDto } from '../rewards/dto/claims.dto';
import { ClaimHolder, RewardClaimsService } from '../rewards/reward-claims.service';
import { RewardRoundsRepository } from '../rewards/reward-rounds.repository';
import { OpcClaimableDto, OpcConfigDto, OpcRevenueEntryDto, OpcRevenueQueryDto, OpcRevenueSummaryDto, OpcStyleConfigDto, PutOpcDto } from './dto/opc.dto';
import { RESERVED_SUBDOMAINS } from './opc-rules';
import { OpcRepository, OpcRow } from './opc.repository';

/**
 * OPCs: a wallet's branded frontend on the service. Its configuration is written through the wallet session;
 * its revenue (the fees its builder address is paid) is read with the key, and only while it is active.
 */
@Injectable()
export class OpcService {
  constructor(
    private readonly repository: OpcRepository,
    private readonly rounds: RewardRoundsRepository,
    private readonly claims: RewardClaimsService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async get(accountId: string): Promise<OpcConfigDto | null> {
    const row = await this.repository.find(accountId);
    return row ? toDto(row) : null;
  }

  /** 400 naming the field for a reserved or taken subdomain, the service's own builder, another OPC's builder, or a builder change while active. */
  async put(accountId: string, body: PutOpcDto): Promise<OpcConfigDto> {
    if (RESERVED_SUBDOMAINS.has(body.subdomain)) throw AppError.validation('subdomain', `"${body.subdomain}" is reserved`);
    if (body.builderAddress === this.config.get('economy.builderAddress', { infer: true })) {
      throw AppError.validation('builderAddress', 'is the service’s own builder address; an OPC needs a builder address of its own');
    }
    const current = await this.repository.find(accountId);
    if (current?.isActive && current.builderAddress !== body.builderAddress) {
      throw AppError.validation('builderAddress', 'cannot change while the OPC is active (its revenue follows the address): deactivate it first');
    }
    const saved = await this.repository.upsert(accountId, {
      name: body.name,
      subdomain: body.subdomain,
      logoUrl: body.logoUrl ?? '',
      styleConfig: { ...(body.styleConfig ?? {}) },
      frontendFeeTenthsBps: body.frontendFeeTenthsBps,
      builderAddress: body.builderAddress,
    });
    if (saved === 'subdomain') throw AppError.validation('subdomain', `"${body.subdomain}" is taken by another OPC`);
    if (saved === 'builderAddress') throw AppError.validation('builderAddress', 'is another OPC’s builder address');
    return toDto(saved);
  }

  /** 404 when the account has no OPC yet (PUT one first). */
  async setActive(accountId: string, active: boolean): Promise<OpcConfigDto> {
    const row = await this.repository.setActive(accountId, active);
    if (!row) throw AppError.notFound('OPC of this account (create it with PUT /api/v1/opc)');
    return toDto(row);
  }

  async revenue(holder: ClaimHolder, { page, limit }: OpcRevenueQueryDto): Promise<Page<OpcRevenueEntryDto>> {
    const opc = await this.requireActive(holder.accountId);
    assertWithinOffsetCap(page, limit);
    const [rows, total] = await Promise.all([
      this.repository.revenueEntries(opc.id, { offset: offsetOf(page, limit), take: limit }),
      this.repository.countRevenueEntries(opc.id),
    ]);
    const tokenSymbol = this.tokenSymbol();
    const items = rows.map((row) => ({
      id: row.id,
      amount: toDecimalString(row.amount),
      tokenSymbol,
      periodStart: row.periodStart.toISOString(),
      periodEnd: row.periodEnd.toISOString(),
      createdAt: row.createdAt.toISOString(),
    }));
    return toPage({ items, page, limit, total });
  }

  async summary(holder: ClaimHolder): Promise<OpcRevenueSummaryDto> {
    const opc = await this.requireActive(holder.accountId);
    const [total, sums] = await Promise.all([this.repository.totalRevenue(opc.id), this.rounds.sums(holder.accountId, 'opc')]);
    const claimed = fromBaseUnits(sums.claimedBase, this.decimals());
    return {
      totalRevenue: toDecimalString(total),
      totalClaimed: claimed,
      pendingClaimable: new Decimal(total).minus(claimed).toFixed(),
      tokenSymbol: this.tokenSymbol(),
    };
  }

  async claimable(holder: ClaimHolder): Promise<OpcClaimableDto> {
    await this.requireActive(holder.accountId);
    const sums = await this.rounds.sums(holder.accountId, 'opc');
    return { claimable: fromBaseUnits(sums.unclaimedBase, this.decimals()), tokenSymbol: this.tokenSymbol() };
  }

  async claimsPage(holder: ClaimHolder, query: ClaimsPageQueryDto): Promise<OpcClaimsPageDto> {
    await this.requireActive(holder.accountId);
    return this.claims.claimsPage(holder, 'opc', query);
  }

  /** The contract shows no status for a missing OPC: 403 FORBIDDEN (the call is refused, so not billed). */
  private async requireActive(accountId: string): Promise<OpcRow> {
    const opc = await this.repository.find(accountId);
    if (!opc?.isActive) {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        `an active OPC is required: ${opc ? 'activate it with POST /api/v1/opc/activate' : 'create one with PUT /api/v1/opc, then activate it'}`,
      );
    }
    return opc;
  }

  private tokenSymbol(): string {
    return this.config.get('economy.rewards.tokenSymbol', { infer: true });
  }

  private decimals(): number {
    return this.config.get('economy.rewards.tokenDecimals', { infer: true });
  }
}

function toDto(row: OpcRow): OpcConfigDto {
  return {
    id: row.id,
    ownerAddress: row.ownerAddress,
    name: row.name,
    subdomain: row.subdomain,
    logoUrl: row.logoUrl,
    styleConfig: row.styleConfig as OpcStyleConfigDto,
    frontendFeeTenthsBps: row.frontendFeeTenthsBps,
    builderAddress: row.builderAddress,
    isActive: row.isActive,
    billingAnchorAt: row.billingAnchorAt.toISOString(),
  };
}
