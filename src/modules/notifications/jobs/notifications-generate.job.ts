import { Injectable, Logger } from '@nestjs/common';
import { JobOutcome } from '../../../jobs/job.types';
import { HlAddressesRepository } from '../../hl/jobs/hl-addresses.repository';
import { HeldCondition, NotificationConditionsRepository } from './notification-conditions.repository';
import { fundingRateMessage, liquidationRiskMessage, priceMoveMessage } from './notification-messages';

const MINUTE_MS = 60_000;

/**
 * notifications.generate: finds the alert conditions that hold (watchlist price moves, the wallet's positions
 * nearing liquidation, watchlist perps' funding beyond the threshold) and stores one notification when a condition begins; none while it holds, and one
 * again only after it cleared. It also adds accounts' wallets to the address universe, so the position poll
 * reads them and their positions can be checked on the following runs.
 */
@Injectable()
export class NotificationsGenerateJob {
  private readonly logger = new Logger(NotificationsGenerateJob.name);

  constructor(
    private readonly conditions: NotificationConditionsRepository,
    private readonly addresses: HlAddressesRepository,
  ) {}

  async run(signal?: AbortSignal, now: Date = new Date()): Promise<JobOutcome> {
    const wallets = await this.conditions.walletsOutsideUniverse();
    await this.addresses.upsertAddresses({ addresses: wallets, source: 'account' });
    const held = [...(await this.priceMoves(now)), ...(await this.liquidationRisks()), ...(await this.fundingRates())];
    // Nothing is written after an abort: the conditions stay as the last complete run left them.
    signal?.throwIfAborted();
    const { notified, cleared } = await this.conditions.sync(held);
    if (notified > 0) this.logger.log(`${notified} notification(s) sent, ${held.length} condition(s) holding`);
    return { rows: notified, details: { holding: held.length, cleared, walletsAdded: wallets.length } };
  }

  private async priceMoves(now: Date): Promise<HeldCondition[]> {
    const rows = await this.conditions.priceMoves(Math.floor(now.getTime() / MINUTE_MS));
    return rows.map((row) => ({
      accountId: row.accountId,
      type: 'price_move',
      coin: row.coin,
      message: priceMoveMessage(row),
    }));
  }

  private async liquidationRisks(): Promise<HeldCondition[]> {
    const rows = await this.conditions.liquidationRisks();
    return rows.map((row) => ({ accountId: row.accountId, type: 'liquidation_risk', coin: row.coin, message: liquidationRiskMessage(row) }));
  }

  private async fundingRates(): Promise<HeldCondition[]> {
    const rows = await this.conditions.fundingRates();
    return rows.map((row) => ({ accountId: row.accountId, type: 'funding_rate', coin: row.coin, message: fundingRateMessage(row) }));
  }
}
