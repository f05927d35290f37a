import type { SeedEntry } from './seed-entry';

/**
 * KOSPI 200 constituents (Korea Exchange), the largest by market capitalisation. Yahoo symbols are the
 * 6-digit KRX code with `.KS`; the display symbol is that code. A starting universe: an ops command adds
 * assets later.
 */
const kr = (code: string, name: string, sector: string): SeedEntry => ({
  yahooSymbol: `${code}.KS`,
  type: 'STOCK',
  market: 'KR',
  symbol: code,
  name,
  sector,
  currency: 'KRW',
});

export const KR_STOCKS: SeedEntry[] = [
  kr('005930', 'Samsung Electronics', 'Technology'),
  kr('000660', 'SK hynix', 'Technology'),
  kr('373220', 'LG Energy Solution', 'Industrials'),
  kr('207940', 'Samsung Biologics', 'Healthcare'),
  kr('005380', 'Hyundai Motor', 'Consumer Cyclical'),
  kr('000270', 'Kia', 'Consumer Cyclical'),
  kr('068270', 'Celltrion', 'Healthcare'),
  kr('005490', 'POSCO Holdings', 'Basic Materials'),
  kr('035420', 'NAVER', 'Communication Services'),
  kr('105560', 'KB Financial Group', 'Financial Services'),
  kr('055550', 'Shinhan Financial Group', 'Financial Services'),
  kr('012330', 'Hyundai Mobis', 'Consumer Cyclical'),
  kr('051910', 'LG Chem', 'Basic Materials'),
  kr('006400', 'Samsung SDI', 'Industrials'),
  kr('035720', 'Kakao', 'Communication Services'),
  kr('028260', 'Samsung C&T', 'Industrials'),
  kr('003670', 'POSCO Future M', 'Industrials'),
  kr('066570', 'LG Electronics', 'Technology'),
  kr('032830', 'Samsung Life Insurance', 'Financial Services'),
  kr('086790', 'Hana Financial Group', 'Financial Services'),
  kr('012450', 'Hanwha Aerospace', 'Industrials'),
  kr('015760', 'Korea Electric Power', 'Utilities'),
  kr('017670', 'SK Telecom', 'Communication Services'),
  kr('034730', 'SK Inc.', 'Industrials'),
  kr('096770', 'SK Innovation', 'Energy'),
  kr('003550', 'LG Corp.', 'Industrials'),
  kr('033780', 'KT&G', 'Consumer Defensive'),
  kr('009150', 'Samsung Electro-Mechanics', 'Technology'),
  kr('010130', 'Korea Zinc', 'Basic Materials'),
  kr('018260', 'Samsung SDS', 'Technology'),
  kr('011200', 'HMM', 'Industrials'),
  kr('316140', 'Woori Financial Group', 'Financial Services'),
  kr('000810', 'Samsung Fire & Marine Insurance', 'Financial Services'),
  kr('030200', 'KT Corporation', 'Communication Services'),
  kr('034020', 'Doosan Enerbility', 'Industrials'),
  kr('010140', 'Samsung Heavy Industries', 'Industrials'),
  kr('024110', 'Industrial Bank of Korea', 'Financial Services'),
  kr('259960', 'Krafton', 'Communication Services'),
  kr('090430', 'Amorepacific', 'Consumer Defensive'),
];
