import { CryptoCoin } from '../world/crypto-universe';
import { percent, ticker, usd } from './news-format';
import { Story } from './story-stream';
import { nth, storyAmount, Worded } from './story-text-en';

/** Coin names as the Chinese-language press writes them; the others keep their English name. */
export const ZH_COIN_NAMES: Record<string, string> = {
  bitcoin: '比特币',
  ethereum: '以太坊',
  ripple: '瑞波币',
  binancecoin: '币安币',
  solana: '索拉纳',
  tron: '波场',
  dogecoin: '狗狗币',
  cardano: '艾达币',
  litecoin: '莱特币',
  polkadot: '波卡',
  'bitcoin-cash': '比特币现金',
  stellar: '恒星币',
  'avalanche-2': '雪崩',
};
const ZH_PARTNERS: Record<string, string> = { V: 'Visa', '005930.KS': '三星电子', '6758.T': '索尼', JPM: '摩根大通', '0005.HK': '汇丰' };
/** CENTRAL_BANKS in Chinese, in the same order. */
const ZH_CENTRAL_BANKS = ['美联储', '欧洲央行', '日本央行', '英国央行'];
const RISE_REASONS = ['ETF资金持续流入', '巨鲸持续增持', '未平仓合约攀升', '空头遭遇逼空', '链上数据向好'];
const FALL_REASONS = ['获利盘涌出', '多头遭大规模清算', '网络出现故障', '市场避险情绪升温', '大额代币解锁在即'];

export function zhName(coin: CryptoCoin): string {
  return ZH_COIN_NAMES[coin.id] ?? coin.name;
}

/** `比特币（BTC）`, or with ASCII brackets now and then, as flash-news desks mix them. */
function zhMention(coin: CryptoCoin, story: Story): string {
  return story.hash % 3 === 0 ? `${zhName(coin)}(${ticker(coin)})` : `${zhName(coin)}（${ticker(coin)}）`;
}

/** A figure in $M as the Chinese press writes it: `1240万美元`, `8.59亿美元` from 100M up. */
function wan(millions: number): string {
  return millions >= 100 ? `${(millions / 100).toFixed(2)}亿美元` : `${Math.round(millions * 100)}万美元`;
}

function moveWording(story: Story): Worded {
  const coin = story.coin!;
  const move = story.move!;
  const subject = zhMention(coin, story);
  const clock = new Date(move.toAt).toISOString().slice(11, 16);
  const categories = ['快讯', zhName(coin)];
  if (story.tone === 'neutral') {
    return {
      title: `${subject}窄幅震荡，现报${usd(move.toPx)}`,
      summary: `行情显示，${zhName(coin)}（${ticker(coin)}）于${clock}（UTC）报${usd(move.toPx)}，${move.hours}小时内波动不足${percent(move.change)}%，成交清淡。`,
      categories,
    };
  }
  const rose = story.tone === 'bullish';
  const verb = rose ? '上涨' : '下跌';
  const reason = nth(rose ? RISE_REASONS : FALL_REASONS, story.variant >>> 8);
  return {
    title: `${subject}${move.hours}小时内${verb}${percent(move.change)}%，${reason}`,
    summary:
      `行情显示，${zhName(coin)}（${ticker(coin)}）于${clock}（UTC）报${usd(move.toPx)}，较${move.hours}小时前的${usd(move.fromPx)}${verb}${percent(move.change)}%。` +
      `分析人士认为短期走势${rose ? '偏强' : '偏弱'}。`,
    categories,
  };
}

function topicWording(story: Story): Worded {
  const coin = story.coin;
  const m = coin ? zhMention(coin, story) : '';
  const name = coin ? zhName(coin) : '';
  const partner = story.listing ? (ZH_PARTNERS[story.listing.symbol] ?? story.listing.shortName) : '';
  const worded = (title: string, summary: string, ...categories: string[]): Worded => ({ title, summary, categories: ['快讯', ...categories] });
  switch (story.kind) {
    case 'etf': {
      const flow = storyAmount(story, 80, 900, 1);
      return story.variant === 0
        ? worded(`美国现货${m}ETF单日净流入${wan(flow)}`, `美国上市的现货${name}ETF当日合计净流入${wan(flow)}，连续多日保持净流入。`, 'ETF')
        : worded(`资产管理公司提交现货${m}ETF申请`, `若获批准，券商客户将可直接投资${name}，监管审批期最长为240天。`, 'ETF');
    }
    case 'regulation':
      if (!coin) return worded('欧盟监管机构发布MiCA稳定币最终指引', '指引对发行方的储备、赎回及信息披露提出要求，须在12个月内达标。', '监管');
      return story.variant === 0
        ? worded(`美国SEC推迟对现货${m}ETF申请的决定`, `SEC延长了对多只${name}基金申请的审查期，最终决定推迟至下季度。`, '监管')
        : worded(`监管机构调查美国交易所的${m}质押服务`, `监管官员要求交易所提供${name}质押业务记录，相关平台或面临罚款。`, '监管');
    case 'hack': {
      const loss = storyAmount(story, 1.2, 85);
      return story.variant === 0
        ? worded(`${m}生态借贷协议遭攻击，损失约${wan(loss)}`, '攻击者操纵价格预言机，以无价值抵押品借出资产，项目方已暂停相关市场。', '安全')
        : worded(`${m}跨链桥私钥泄露，被盗${wan(loss)}`, '被盗资金数分钟内转入新地址，跨链桥已暂停充提并展开调查。', '安全');
    }
    case 'listing':
      return worded(
        nth([`Hyperliquid上线${m}永续合约，最高10倍杠杆`, `Coinbase将${m}列入现货上币路线图`, `币安上线${m}杠杆及合约交易对`], story.variant),
        `新市场扩大了${name}的交易渠道，消息公布后订单簿深度明显增加。`,
        '交易所',
      );
    case 'partnership':
      return story.variant === 0
        ? worded(`${m}基金会与${partner}合作推进稳定币结算`, `${partner}将部分商户结算迁移至${name}网络，结算时间缩短至数秒。`, '合作')
        : worded(`${partner}选用${m}开展代币化支付试点`, `试点将为部分企业客户提供基于${name}的支付服务，持续至年底。`, '合作');
    case 'funding': {
      const raised = storyAmount(story, 3, 60);
      return story.variant === 0
        ? worded(`${m}生态初创公司完成${wan(raised)}A轮融资`, `本轮融资将用于${name}钱包基础设施建设，估值较种子轮大幅提升。`, '融资')
        : worded(`风投机构向${m}基础设施项目注资${wan(raised)}`, `投资方押注${name}开发者生态增长，覆盖索引、预言机与钱包项目。`, '融资');
    }
    case 'macro':
      return nth(
        [
          worded(
            `${nth(ZH_CENTRAL_BANKS, story.hash >>> 4)}维持利率不变，暗示降息需更多耐心`,
            '政策制定者维持基准利率不变，并表示需要更多通胀降温的证据。',
            '宏观',
          ),
          worded(`CPI超预期，交易员押注降息概率降至${10 + (story.hash % 20)}%以下`, '消费者物价涨幅高于预期，市场推迟降息预期，美债收益率上行。', '宏观'),
          worded('美元走弱、美债收益率回落，风险资产获支撑', '美元指数连续第三个交易日下跌，股票和大宗商品随之走高。', '宏观'),
          worded('非农数据公布在即，标普500指数期货持平', '投资者在就业数据和多位央行官员讲话前保持观望。', '宏观'),
        ],
        story.variant,
      );
    default:
      throw new Error(`news: no Chinese wording for ${story.kind}`);
  }
}

/** A market story as the Chinese-language desk words it: simplified Chinese, tickers kept in the text. */
export function chineseStory(story: Story): Worded {
  return story.kind === 'move' ? moveWording(story) : topicWording(story);
}
