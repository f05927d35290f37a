import { formatPrice, fundingRateMessage, liquidationRiskMessage, priceMoveMessage } from './notification-messages';

describe('notification messages', () => {
  it('says a rise and a fall with the move to one decimal and the price grouped', () => {
    expect(priceMoveMessage({ coin: 'BTC', pastPx: '91720', mid: '97410', windowMinutes: 60 })).toBe('BTC rose 6.2% in the last hour to 97,410');
    expect(priceMoveMessage({ coin: 'ETH', pastPx: '3000', mid: '2790.5', windowMinutes: 60 })).toBe('ETH fell 7.0% in the last hour to 2,791');
  });

  it("names the account's window in hours from an hour up, else in minutes", () => {
    expect(priceMoveMessage({ coin: 'BTC', pastPx: '100', mid: '110', windowMinutes: 15 })).toBe('BTC rose 10.0% in the last 15 minutes to 110.00');
    expect(priceMoveMessage({ coin: 'BTC', pastPx: '100', mid: '110', windowMinutes: 240 })).toBe('BTC rose 10.0% in the last 4 hours to 110.00');
  });

  it('keeps the significant digits of small prices', () => {
    expect(formatPrice('0.000123456')).toBe('0.0001235');
    expect(formatPrice('0.51234')).toBe('0.5123');
    expect(formatPrice('12.345')).toBe('12.35');
  });

  it('names the side of the position and its distance to liquidation', () => {
    expect(liquidationRiskMessage({ coin: 'BTC', szi: '0.5', markPx: '97410', liquidationPx: '94400' })).toBe(
      'Your BTC long is 3.1% from liquidation: mark 97,410, liquidation price 94,400',
    );
    expect(liquidationRiskMessage({ coin: 'ETH', szi: '-2', markPx: '3000', liquidationPx: '3090' })).toMatch(/^Your ETH short is 3\.0% from liquidation/);
  });

  it('gives the funding rate an hour and a year, and which side pays', () => {
    expect(fundingRateMessage({ coin: 'BTC', funding: '0.0001' })).toBe('BTC funding is +0.0100% an hour (87.6% a year): longs pay shorts');
    expect(fundingRateMessage({ coin: 'xyz:TSLA', funding: '-0.0000625' })).toBe('xyz:TSLA funding is -0.0063% an hour (54.8% a year): shorts pay longs');
  });
});
