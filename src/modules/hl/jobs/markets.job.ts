import { Injectable } from '@nestjs/common';
import { outcomeCoin } from '../../../providers/hyperliquid/outcome-coin';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { PerpMetaAndAssetCtxs, SpotMetaAndAssetCtxs, OutcomeMeta } from '../../../providers/hyperliquid/hyperliquid.types';
import { JobOutcome } from '../../../jobs/job.types';
import { HlFeedReadsRepository } from './hl-feed-reads.repository';
import { HlStateRepository, MarketRow } from './hl-state.repository';

const USDC_TOKEN = 0;

/**
 * The market catalogue: every perp of the native dex and of each HIP-3 dex, every spot token priced
 * through its USDC pair, and every HIP-4 outcome side, with marks, open interest and supply. It is the
 * valid coin set of the endpoints and the marks the snapshots are valued at.
 */
@Injectable()
export class MarketsJob {
  constructor(
    private readonly client: HyperliquidInfoClient,
    private readonly state: HlStateRepository,
    private readonly feeds: HlFeedReadsRepository,
  ) {}

  async run(): Promise<JobOutcome> {
    const startedAt = new Date();
    const dexes = await this.client.perpDexs();
    const perps = await Promise.all([
      this.client.metaAndAssetCtxs().then((data) => ({ dex: '', data })),
      ...dexes.map((d) => this.client.metaAndAssetCtxs(d.name).then((data) => ({ dex: d.name, data }))),
    ]);
    const [spot, outcomes] = await Promise.all([this.client.spotMetaAndAssetCtxs(), this.client.outcomeMeta()]);
    const rows = [...perps.flatMap(({ dex, data }) => perpRows(dex, data)), ...spotRows(spot), ...outcomeRows(outcomes)];
    await this.state.replaceMarkets(rows);
    // The catalogue carries marks and mids too: it refreshes what the snapshots are valued at, as hl.mids does.
    if (rows.length > 0) await this.feeds.stamp('marks', startedAt);
    return { rows: rows.length, details: { dexes: dexes.map((d) => d.name) } };
  }
}

function perpRows(dex: string, { meta, ctxs }: PerpMetaAndAssetCtxs): MarketRow[] {
  return meta.universe.flatMap((asset, i) => {
    const ctx = ctxs[i];
    if (asset.isDelisted || !ctx) return [];
    // HIP-3 names already carry their dex (`xyz:TSLA`); make sure of it rather than trust every dex to.
    const coin = dex && !asset.name.startsWith(`${dex}:`) ? `${dex}:${asset.name}` : asset.name;
    return [
      {
        market: 'perp' as const,
        coin,
        dex,
        upstreamCoin: coin,
        markPx: ctx.markPx,
        midPx: ctx.midPx,
        prevDayPx: ctx.prevDayPx,
        openInterest: ctx.openInterest,
        circulatingSupply: null,
        dayNtlVlm: ctx.dayNtlVlm,
        funding: ctx.funding,
        szDecimals: asset.szDecimals,
        maxLeverage: asset.maxLeverage,
        outcomeId: null,
        outcomeSide: null,
        outcomeName: null,
      },
    ];
  });
}

/** A token is priced by its USDC pair (canonical first); USDC itself is worth 1. */
function spotRows({ meta, ctxs }: SpotMetaAndAssetCtxs): MarketRow[] {
  const ctxByCoin = new Map(ctxs.map((c) => [c.coin, c]));
  const seen = new Set<string>();
  const rows: MarketRow[] = [];
  const tokens = [...meta.tokens].sort((a, b) => Number(b.isCanonical) - Number(a.isCanonical) || a.index - b.index);
  for (const token of tokens) {
    if (seen.has(token.name)) continue;
    const pair = meta.universe
      .filter((p) => p.tokens[0] === token.index && p.tokens[1] === USDC_TOKEN)
      .sort((a, b) => Number(b.isCanonical) - Number(a.isCanonical))[0];
    const ctx = pair ? ctxByCoin.get(pair.name) : undefined;
    if (token.index !== USDC_TOKEN && !ctx) continue;
    seen.add(token.name);
    rows.push({
      market: 'spot',
      coin: token.name,
      dex: '',
      upstreamCoin: pair?.name ?? token.name,
      markPx: token.index === USDC_TOKEN ? '1' : ctx!.markPx,
      midPx: token.index === USDC_TOKEN ? '1' : ctx!.midPx,
      prevDayPx: token.index === USDC_TOKEN ? '1' : ctx!.prevDayPx,
      openInterest: null,
      circulatingSupply: ctx?.circulatingSupply ?? null,
      dayNtlVlm: ctx?.dayNtlVlm ?? null,
      funding: null,
      szDecimals: token.szDecimals,
      maxLeverage: null,
      outcomeId: null,
      outcomeSide: null,
      outcomeName: null,
    });
  }
  return rows;
}

function outcomeRows({ outcomes }: OutcomeMeta): MarketRow[] {
  return outcomes.flatMap((o) =>
    o.sides.map((_side, side) => ({
      market: 'hip4' as const,
      coin: outcomeCoin(o.outcome, side),
      dex: '',
      upstreamCoin: outcomeCoin(o.outcome, side),
      markPx: null,
      midPx: null,
      prevDayPx: null,
      openInterest: null,
      circulatingSupply: null,
      dayNtlVlm: null,
      funding: null,
      szDecimals: null,
      maxLeverage: null,
      outcomeId: o.outcome,
      outcomeSide: side,
      outcomeName: o.name,
    })),
  );
}
