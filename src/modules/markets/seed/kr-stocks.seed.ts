import type { SeedEntry } from './seed-entry';

/**
 * KOSPI 200 constituents (Korea Exchange), the largest by market capitalisation. Yahoo symbols are the
 * 6-digit KRX code with `.KS`; the display symbol is that code. A starting universe: an ops command adds
 * assets later.
 */
const kr = (code: string, name: string, sector: string, industry: string): SeedEntry => ({
  yahooSymbol: `${code}.KS`,
  type: 'STOCK',
  market: 'KR',
  symbol: code,
  name,
  sector,
  industry,
  currency: 'KRW',
});

export const KR_STOCKS: SeedEntry[] = [
  kr('005930', 'Samsung Electronics', 'Technology', 'Consumer Electronics'),
  kr('000660', 'SK hynix', 'Technology', 'Semiconductors'),
  kr('373220', 'LG Energy Solution', 'Industrials', 'Electrical Equipment & Parts'),
  kr('207940', 'Samsung Biologics', 'Healthcare', 'Biotechnology'),
  kr('005380', 'Hyundai Motor', 'Consumer Cyclical', 'Auto Manufacturers'),
  kr('000270', 'Kia', 'Consumer Cyclical', 'Auto Manufacturers'),
  kr('068270', 'Celltrion', 'Healthcare', 'Drug Manufacturers - Specialty & Generic'),
  kr('005490', 'POSCO Holdings', 'Basic Materials', 'Steel'),
  kr('035420', 'NAVER', 'Communication Services', 'Internet Content & Information'),
  kr('105560', 'KB Financial Group', 'Financial Services', 'Banks - Regional'),
  kr('055550', 'Shinhan Financial Group', 'Financial Services', 'Banks - Regional'),
  kr('012330', 'Hyundai Mobis', 'Consumer Cyclical', 'Auto Parts'),
  kr('051910', 'LG Chem', 'Basic Materials', 'Specialty Chemicals'),
  kr('006400', 'Samsung SDI', 'Industrials', 'Electrical Equipment & Parts'),
  kr('035720', 'Kakao', 'Communication Services', 'Internet Content & Information'),
  kr('028260', 'Samsung C&T', 'Industrials', 'Conglomerates'),
  kr('003670', 'POSCO Future M', 'Industrials', 'Electrical Equipment & Parts'),
  kr('066570', 'LG Electronics', 'Technology', 'Consumer Electronics'),
  kr('032830', 'Samsung Life Insurance', 'Financial Services', 'Insurance - Life'),
  kr('086790', 'Hana Financial Group', 'Financial Services', 'Banks - Regional'),
  kr('012450', 'Hanwha Aerospace', 'Industrials', 'Aerospace & Defense'),
  kr('015760', 'Korea Electric Power', 'Utilities', 'Utilities - Regulated Electric'),
  kr('017670', 'SK Telecom', 'Communication Services', 'Telecom Services'),
  kr('034730', 'SK Inc.', 'Industrials', 'Conglomerates'),
  kr('096770', 'SK Innovation', 'Energy', 'Oil & Gas Refining & Marketing'),
  kr('003550', 'LG Corp.', 'Industrials', 'Conglomerates'),
  kr('033780', 'KT&G', 'Consumer Defensive', 'Tobacco'),
  kr('009150', 'Samsung Electro-Mechanics', 'Technology', 'Electronic Components'),
  kr('010130', 'Korea Zinc', 'Basic Materials', 'Other Industrial Metals & Mining'),
  kr('018260', 'Samsung SDS', 'Technology', 'Information Technology Services'),
  kr('011200', 'HMM', 'Industrials', 'Marine Shipping'),
  kr('316140', 'Woori Financial Group', 'Financial Services', 'Banks - Regional'),
  kr('000810', 'Samsung Fire & Marine Insurance', 'Financial Services', 'Insurance - Property & Casualty'),
  kr('030200', 'KT Corporation', 'Communication Services', 'Telecom Services'),
  kr('034020', 'Doosan Enerbility', 'Industrials', 'Specialty Industrial Machinery'),
  kr('010140', 'Samsung Heavy Industries', 'Industrials', 'Aerospace & Defense'),
  kr('024110', 'Industrial Bank of Korea', 'Financial Services', 'Banks - Regional'),
  kr('259960', 'Krafton', 'Communication Services', 'Electronic Gaming & Multimedia'),
  kr('090430', 'Amorepacific', 'Consumer Defensive', 'Household & Personal Products'),
];
