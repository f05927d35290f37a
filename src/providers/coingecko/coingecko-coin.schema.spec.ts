import { UpstreamError } from '../kit/upstream.error';
import { parseCoinDetail } from './coingecko-coin.schema';
import { vendorFixture } from '../../../test/support/vendor-fixtures';

// Mutated freely by the shape tests, so read as untyped JSON.
const bitcoin = (): any => vendorFixture('coingecko', 'coins-bitcoin.2021.json');

describe(parseCoinDetail.name, () => {
  it('reads the metadata of the recorded bitcoin detail', () => {
    const sut = parseCoinDetail(bitcoin());
    expect(sut).toMatchObject({
      sourceId: 'bitcoin',
      symbol: 'BTC',
      name: 'Bitcoin',
      categories: ['Cryptocurrency'],
      imageUrl: 'https://assets.coingecko.com/coins/images/1/large/bitcoin.png?1547033579',
      genesisDate: '2009-01-03',
      hashingAlgorithm: 'SHA-256',
      blockTimeMinutes: 10,
      assetPlatform: null,
      contracts: {},
      marketCapRank: 1,
      circulatingSupply: '18710825',
      totalSupply: '21000000',
      maxSupply: '21000000',
      fullyDilutedValuation: '1028857120742',
      allTimeHigh: { price: '64805', at: '2021-04-14T11:54:46.763Z', changePercent: '-24.11506' },
      allTimeLow: { price: '67.81', at: '2013-07-06T00:00:00.000Z', changePercent: '72422.85786' },
      updatedAt: '2021-05-15T15:58:12.266Z',
    });
    expect(sut.description).toMatch(/^Bitcoin is the first successful internet money based on peer-to-peer technology/);
  });

  it('drops the empty placeholders from the links', () => {
    expect(parseCoinDetail(bitcoin()).links).toEqual({
      homepage: ['http://www.bitcoin.org'],
      whitepaper: null,
      blockchainExplorers: ['https://blockchair.com/bitcoin/', 'https://btc.com/', 'https://btc.tokenview.com/'],
      forums: ['https://bitcointalk.org/'],
      chats: [],
      announcements: [],
      twitterHandle: 'btc',
      subreddit: 'https://www.reddit.com/r/Bitcoin/',
      sourceRepositories: ['https://github.com/bitcoin/bitcoin', 'https://github.com/bitcoin/bips'],
    });
  });

  it('reads a token with contracts and a coin CoinGecko knows little about', () => {
    const body = bitcoin();
    body.asset_platform_id = 'ethereum';
    body.platforms = { ethereum: '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', '': '' };
    body.description = { en: '' };
    body.genesis_date = null;
    body.hashing_algorithm = null;
    body.block_time_in_minutes = null;
    body.market_cap_rank = null;
    body.market_data = null;
    delete body.links;
    delete body.image;

    const sut = parseCoinDetail(body);

    expect(sut).toMatchObject({
      assetPlatform: 'ethereum',
      contracts: { ethereum: '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599' },
      description: null,
      genesisDate: null,
      hashingAlgorithm: null,
      blockTimeMinutes: null,
      marketCapRank: null,
      imageUrl: null,
      circulatingSupply: null,
      maxSupply: null,
      fullyDilutedValuation: null,
      allTimeHigh: { price: null, at: null, changePercent: null },
    });
    expect(sut.links.homepage).toEqual([]);
  });

  it('keeps a null max supply null', () => {
    const body = bitcoin();
    body.market_data.max_supply = null;
    body.market_data.ath = {};
    expect(parseCoinDetail(body)).toMatchObject({ maxSupply: null, allTimeHigh: { price: null, at: '2021-04-14T11:54:46.763Z' } });
  });

  it('refuses a links field of the wrong type, naming it', () => {
    const body = bitcoin();
    body.links.homepage = 'http://www.bitcoin.org';
    expect(() => parseCoinDetail(body)).toThrow(
      new UpstreamError({ provider: 'coingecko', kind: 'shape', message: 'coins/id.links.homepage: expected array, got string' }),
    );
  });

  it('refuses an error body instead of returning an empty coin', () => {
    expect(() => parseCoinDetail({ error: 'coin not found' })).toThrow('coingecko: coins/id.id: expected string, got nothing');
  });
});
