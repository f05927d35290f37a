import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { RequestBudget } from '../kit/request-budget';
import { UpstreamError } from '../kit/upstream.error';
import { UpstreamCircuit } from '../kit/upstream-circuit';
import { UPSTREAM_CLOCK, UpstreamClock } from '../kit/upstream-clock';
import { UpstreamHttpClient } from '../kit/upstream-http.client';
import { Candle } from '../market-data-provider';
import { BINANCE_PROVIDER, parseKlines } from './binance-klines.schema';

/** Binance weighs requests per IP per minute. */
export const BINANCE_WINDOW_MS = 60_000;
/** The request weight of `GET /api/v3/klines`, whatever the limit. */
export const KLINES_WEIGHT = 2;
export const MAX_KLINES_LIMIT = 1000;
export type KlineInterval = '1h' | '1d';

/** Binance's own rule for a symbol parameter; anything else is answered 400 like an unknown symbol. */
const SYMBOL_PATTERN = /^[A-Z0-9_.-]{1,20}$/;
const INTERVALS: readonly KlineInterval[] = ['1h', '1d'];
const HTTP_BAD_REQUEST = 400;

export interface KlinesParams {
  /** Binance's pair symbol, base then quote: "BTCUSDT". */
  symbol: string;
  interval: KlineInterval;
  /** 1 to 1,000 bars ending now. */
  limit: number;
  signal?: AbortSignal;
}

/**
 * Binance has no pair of that symbol (it answers 400 `{"code":-1121,"msg":"Invalid symbol."}`): the caller
 * falls back to another source. Any other failure is an outage or a block (451 in restricted regions) and
 * stays a plain UpstreamError.
 */
export class BinanceUnknownSymbolError extends UpstreamError {
  constructor(
    readonly symbol: string,
    cause?: unknown,
  ) {
    super({ provider: BINANCE_PROVIDER, kind: 'http', upstreamStatus: HTTP_BAD_REQUEST, message: `klines: no pair "${symbol}"`, cause });
    this.name = 'BinanceUnknownSymbolError';
  }
}

/**
 * Binance-protocol klines (spot `GET /api/v3/klines`), for candles with a real per-bar volume. Every
 * attempt spends weight 2 from the budget all replicas share, with timeouts and retries on 429, 5xx and
 * network errors. Needs no key.
 */
@Injectable()
export class BinanceKlinesClient implements OnModuleDestroy {
  readonly budget: RequestBudget;
  private readonly http: UpstreamHttpClient;
  private readonly apiUrl: string;

  constructor(config: ConfigService<AppConfig, true>, @Inject(KV_STORE) kv: KvStore, @Optional() @Inject(UPSTREAM_CLOCK) now?: UpstreamClock) {
    const { binance, timeoutMs, maxRetries } = config.get('marketVendors', { infer: true });
    this.apiUrl = binance.apiUrl;
    this.budget = new RequestBudget({ kv, provider: BINANCE_PROVIDER, weightPerWindow: binance.weightPerMinute, windowMs: BINANCE_WINDOW_MS });
    this.http = new UpstreamHttpClient({
      provider: BINANCE_PROVIDER,
      timeoutMs,
      maxRetries,
      budget: this.budget,
      circuit: new UpstreamCircuit({ provider: BINANCE_PROVIDER, now }),
      logger: new Logger(BinanceKlinesClient.name),
    });
  }

  onModuleDestroy(): void {
    this.http.close();
  }

  /** Ascending candles; throws BinanceUnknownSymbolError when Binance lists no such pair. */
  async klines({ symbol, interval, limit, signal }: KlinesParams): Promise<Candle[]> {
    // Checked here so that the one 400 left for a well-formed request is the unknown symbol (the kit drops
    // error bodies, so the -1121 code itself is not read).
    if (!SYMBOL_PATTERN.test(symbol)) throw new RangeError(`symbol: expected a Binance symbol such as BTCUSDT, got "${symbol}"`);
    if (!INTERVALS.includes(interval)) throw new RangeError(`interval: expected ${INTERVALS.join(' or ')}`);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_KLINES_LIMIT) throw new RangeError(`limit: expected 1 to ${MAX_KLINES_LIMIT}, got ${limit}`);
    const url = new URL(`${this.apiUrl}/api/v3/klines`);
    url.searchParams.set('symbol', symbol);
    url.searchParams.set('interval', interval);
    url.searchParams.set('limit', String(limit));
    try {
      return await this.http.request({ label: 'klines', url: url.toString(), weight: KLINES_WEIGHT, parse: (json) => parseKlines(json), signal });
    } catch (err) {
      if (err instanceof UpstreamError && err.kind === 'http' && err.upstreamStatus === HTTP_BAD_REQUEST) throw new BinanceUnknownSymbolError(symbol, err);
      throw err;
    }
  }

  /** Whether Binance lists the pair, for one bar's weight; an outage throws rather than answering false. */
  async hasPair(symbol: string, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.klines({ symbol, interval: '1d', limit: 1, signal });
      return true;
    } catch (err) {
      if (err instanceof BinanceUnknownSymbolError) return false;
      throw err;
    }
  }
}
