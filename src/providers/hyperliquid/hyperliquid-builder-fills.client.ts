import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { ADDRESS_PATTERN } from '../../common/validation/address';
import { UpstreamHttpClient } from '../kit/upstream-http.client';
import { BuilderFillsDay, BuilderFillsSource, DailyBuilderFillsParams } from './builder-fills-source';
import { parseBuilderFillsFile } from './hyperliquid-builder-fills.schema';
import { STATS_MIN_TIMEOUT_MS } from './hyperliquid-info.client';
import { shapeError } from './hyperliquid-reader';
import { HYPERLIQUID_PROVIDER } from './weight-budget';

/**
 * The stats host answers 403 for a file it does not have (a day not uploaded yet); 404 is taken the same way
 * in case it ever says so. Neither tells a day still to come from one that will never have a file (a builder
 * with no fills that day).
 */
export const NOT_PUBLISHED_STATUSES: readonly number[] = [403, 404];
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Keyless daily files of the fills that carried a builder's code, from the stats host
 * (`GET <stats>/builder_fills/<builder lower-case>/<YYYYMMDD>.csv.lz4`). Like the leaderboard download it is
 * not weighed against the info API budget: another host, with no published limit. Each file is read into
 * memory and parsed in one go, as the leaderboard is.
 */
@Injectable()
export class HyperliquidBuilderFillsClient implements BuilderFillsSource, OnModuleDestroy {
  readonly name = HYPERLIQUID_PROVIDER;
  private readonly http: UpstreamHttpClient;

  constructor(private readonly config: ConfigService<AppConfig, true>) {
    const { timeoutMs, maxRetries } = this.settings;
    this.http = new UpstreamHttpClient({ provider: HYPERLIQUID_PROVIDER, timeoutMs, maxRetries, logger: new Logger(HyperliquidBuilderFillsClient.name) });
  }

  /** Calls in flight give up at once, so jobs end promptly at shutdown. */
  onModuleDestroy(): void {
    this.http.close();
  }

  async dailyFills({ builder, day, signal }: DailyBuilderFillsParams): Promise<BuilderFillsDay> {
    if (!ADDRESS_PATTERN.test(builder)) throw new RangeError('builder must be a 0x address');
    const address = builder.toLowerCase();
    const file = `builder_fills/${address}/${fileDay(day)}.csv`;
    const { statsUrl, timeoutMs } = this.settings;
    return this.http.getAccepting({
      // A closed set in logs; the file is named in shape errors.
      label: 'builder_fills',
      url: `${statsUrl}/${file}.lz4`,
      responseType: 'bytes',
      acceptStatuses: NOT_PUBLISHED_STATUSES,
      timeoutMs: Math.max(timeoutMs, STATS_MIN_TIMEOUT_MS),
      signal,
      parse: ({ status, body }): BuilderFillsDay => {
        if (NOT_PUBLISHED_STATUSES.includes(status)) return { status: 'not-published', builder: address, day };
        if (!Buffer.isBuffer(body)) throw shapeError(file, 'expected a binary body');
        return { status: 'published', builder: address, day, fills: parseBuilderFillsFile(body, { builder: address, label: file }) };
      },
    });
  }

  private get settings(): AppConfig['hyperliquid'] {
    return this.config.get('hyperliquid', { infer: true });
  }
}

/** 'YYYY-MM-DD' (a UTC day that exists) as the file names it, 'YYYYMMDD'. */
function fileDay(day: string): string {
  const match = DAY.exec(day);
  const [year, month, date] = (match?.slice(1) ?? []).map(Number);
  const check = new Date(Date.UTC(year, month - 1, date));
  if (!match || check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) {
    throw new RangeError('day must be a UTC day, YYYY-MM-DD');
  }
  return `${match[1]}${match[2]}${match[3]}`;
}
