import { MentionStyle } from './news-feeds';
import { between, mention, percent, ticker, usd, utcClock, windowLabel } from './news-format';
import { Story, storyUnit } from './story-stream';

/** A story as one desk words it: headline, plain-text summary, section labels. */
export interface Worded {
  title: string;
  summary: string;
  categories: string[];
}

export const RISE_VERBS = ['jumps', 'climbs', 'rallies', 'surges', 'gains'];
export const FALL_VERBS = ['slides', 'tumbles', 'drops', 'sinks', 'falls'];
const RISE_REASONS = ['as ETF inflows build', 'as whales accumulate', 'on rising open interest', 'as short sellers get squeezed', 'after upbeat on-chain data'];
const FALL_REASONS = [
  'as traders take profits',
  'amid a wave of long liquidations',
  'after network outage',
  'as risk appetite fades',
  'ahead of a large token unlock',
];
/** Which central bank a rates story is about; the Chinese desk names the same one (by index). */
export const CENTRAL_BANKS = ['The Fed', 'The ECB', 'The Bank of Japan', 'The Bank of England'];
/** How a crypto story names the partner company: as the press does, not as the listing does (`SamsungElec`). */
export const PARTNER_NAMES: Record<string, string> = {
  V: 'Visa',
  '005930.KS': 'Samsung Electronics',
  '6758.T': 'Sony',
  JPM: 'JPMorgan Chase & Co.',
  '0005.HK': 'HSBC',
};

export const nth = <T>(items: readonly T[], n: number): T => items[n % items.length];

/** The figure a story reports (an inflow, a loss, a round), in $M: the same on every desk that runs it. */
export function storyAmount(story: Story, low: number, high: number, step = 0.1): number {
  return Number(between(storyUnit(story, 20), low, high, step).toFixed(1));
}

function moveWording(story: Story, style: MentionStyle): Worded {
  const coin = story.coin!;
  const move = story.move!;
  const subject = mention(coin, style);
  const categories = ['Markets', coin.name];
  const facts = `${coin.name} (${ticker(coin)}) changed hands at ${usd(move.toPx)} at ${utcClock(move.toAt)}`;
  if (story.tone === 'neutral') {
    return {
      title: nth(
        [`${subject} holds steady near ${usd(move.toPx)} as volatility fades`, `${subject} trades flat at ${usd(move.toPx)} ahead of options expiry`],
        story.variant,
      ),
      summary: `${facts}, within ${percent(move.change)}% of its price ${windowLabel(move.hours)} earlier. ${coin.name}'s range has narrowed and volumes are thin.`,
      categories,
    };
  }
  const rose = story.tone === 'bullish';
  const verb = nth(rose ? RISE_VERBS : FALL_VERBS, story.variant);
  const reason = nth(rose ? RISE_REASONS : FALL_REASONS, story.variant >>> 8);
  const outlook = rose
    ? `${coin.name}'s momentum is improving, with buyers stepping in on dips`
    : `${coin.name}'s momentum is fading, with sellers in control for now`;
  return {
    title: `${subject} ${verb} ${percent(move.change)}% ${reason}`,
    summary: `${facts}, ${rose ? 'up' : 'down'} ${percent(move.change)}% from ${usd(move.fromPx)} ${windowLabel(move.hours)} earlier. Traders said ${outlook}.`,
    categories,
  };
}

function topicWording(story: Story, style: MentionStyle): Worded {
  const coin = story.coin;
  const subject = coin ? mention(coin, style) : '';
  const name = coin?.name ?? '';
  const amount = (low: number, high: number, step?: number) => storyAmount(story, low, high, step);
  const partner = story.listing ? (PARTNER_NAMES[story.listing.symbol] ?? story.listing.shortName) : '';
  const worded = (title: string, summary: string, ...categories: string[]): Worded => ({ title, summary, categories });
  switch (story.kind) {
    case 'etf': {
      const flow = amount(80, 900, 1);
      return story.variant === 0
        ? worded(
            `${subject} ETFs log $${flow}M of net inflows, the most in ${2 + (story.hash % 6)} weeks`,
            `US-listed spot ${name} funds took in $${flow}M on the day, extending the products' winning streak as advisers add exposure.`,
            'ETFs',
            name,
          )
        : worded(
            `Asset manager files for spot ${subject} ETF as demand for crypto exposure grows`,
            `The filing would give brokerage clients direct exposure to ${name}; the regulator's decision window runs up to 240 days.`,
            'ETFs',
            'Policy',
          );
    }
    case 'regulation':
      if (!coin)
        return worded(
          'EU regulators publish final stablecoin guidance under MiCA',
          'The guidance sets reserve, redemption and disclosure rules that issuers must meet within 12 months.',
          'Policy',
          'Regulation',
        );
      return story.variant === 0
        ? worded(
            `SEC delays decision on spot ${subject} ETF applications`,
            `The agency extended its review of several ${name} fund filings, pushing a ruling into next quarter and disappointing issuers.`,
            'Policy',
            name,
          )
        : worded(
            `Regulators probe ${subject} staking services offered by US exchanges`,
            `Officials asked exchanges for records on ${name} staking programs, raising the risk of fines and forced shutdowns.`,
            'Policy',
            name,
          );
    case 'hack': {
      const loss = amount(1.2, 85);
      return story.variant === 0
        ? worded(
            `Lending protocol on ${subject} drained of $${loss}M in exploit`,
            `An attacker manipulated a price oracle to borrow against worthless collateral; the team paused the protocol's markets.`,
            'Hacks',
            'DeFi',
          )
        : worded(
            `Hackers steal $${loss}M from ${subject} bridge in private-key compromise`,
            `Funds were moved to fresh wallets within minutes; the bridge halted deposits and withdrawals while it investigates the loss.`,
            'Hacks',
            name,
          );
    }
    case 'listing':
      return worded(
        nth(
          [
            `Hyperliquid lists ${subject} perpetual futures with up to 10x leverage`,
            `Coinbase to add ${subject} to its spot trading roadmap`,
            `Binance opens ${subject} margin and futures pairs`,
          ],
          story.variant,
        ),
        `The new markets broaden access to ${name}, whose order books deepened after the announcement.`,
        'Exchanges',
        name,
      );
    case 'partnership':
      return story.variant === 0
        ? worded(
            `${subject} Foundation partners with ${partner} on stablecoin settlement`,
            `${partner} will settle a share of merchant payouts on ${name}, cutting settlement to seconds.`,
            'Business',
            name,
          )
        : worded(
            `${partner} taps ${subject} for tokenized payments pilot`,
            `The pilot runs ${name}-based payments for a group of corporate clients through the end of the year.`,
            'Business',
            name,
          );
    case 'funding': {
      const raised = amount(3, 60);
      return story.variant === 0
        ? worded(
            `${subject} ecosystem startup raises $${raised}M in Series A round`,
            `The round values the team's wallet infrastructure for ${name} at several times its seed valuation.`,
            'Venture Capital',
            name,
          )
        : worded(
            `Venture firms pour $${raised}M into ${subject} infrastructure builders`,
            `Investors backed indexers, oracles and wallets building on ${name}, betting on developer growth.`,
            'Venture Capital',
            name,
          );
    }
    case 'macro':
      return nth(
        [
          worded(
            `${nth(CENTRAL_BANKS, story.hash >>> 4)} holds rates steady, signals patience on cuts`,
            'Policymakers left the benchmark rate unchanged and said they need more evidence that inflation is cooling.',
            'Macro',
          ),
          worded(
            `Traders price <${10 + (story.hash % 20)}% odds of a rate cut after hot CPI print`,
            'Consumer prices rose faster than forecast, pushing expected cuts further out & lifting Treasury yields.',
            'Macro',
          ),
          worded(
            'Dollar slips as Treasury yields retreat, lifting risk assets',
            'The dollar index fell for a third straight day as yields eased, giving equities and commodities room to climb.',
            'Macro',
          ),
          worded(
            'S&P 500 futures flat ahead of jobs report & Fed speakers',
            'Investors held positions before the payrolls data and a busy slate of central-bank appearances.',
            'Macro',
          ),
        ],
        story.variant,
      );
    case 'guard':
      // Words an asset linker must not take for tickers or coin names: one (ONE), AI, IT, OP, solution (SOL), near (NEAR), link (LINK), tons (TON), dot (DOT).
      return nth(
        [
          worded(
            'Op-ed: Why one of the largest banks sees AI as the solution for legacy IT',
            'Executives argue the right solution could cut IT spending by one third within five years.',
            'Opinion',
          ),
          worded(
            'Grid operators link tons of new capacity near Texas data centers',
            'Utilities said the new lines arrive near the end of the year, in time for the summer peak.',
            'Energy',
          ),
          worded(
            'The dot-com lessons every founder should know, one decade on',
            'One investor lists the mistakes of the dot-com era that founders keep repeating today.',
            'Opinion',
          ),
        ],
        story.variant,
      );
    default:
      throw new Error(`news: no English wording for ${story.kind}`);
  }
}

/** A market story as an English crypto desk words it, naming its coin in `style`. */
export function englishStory(story: Story, style: MentionStyle): Worded {
  return story.kind === 'move' ? moveWording(story, style) : topicWording(story, style);
}
