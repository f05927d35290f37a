import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { decodeUsageHash, encodeUsageTallies, meterOfMember, UsageMeterKeys, UsageTallies } from './usage-meter.format';
import { ADD_USAGE_SCRIPT } from './usage-meter.scripts';

const ACCOUNT = '0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f';

describe('usage meter format', () => {
  it('reads back, endpoint by endpoint and day by day, the tallies a flush adds to the live meter', async () => {
    const kv = new MemoryKvStore();
    const tallies: UsageTallies = new Map([
      [
        ACCOUNT,
        new Map([
          [
            4,
            new Map([
              [
                '2027-01-15',
                new Map([
                  ['hl.perp.holders', { calls: 3, creditsMicro: 3_000_000 }],
                  ['usage.list', { calls: 2, creditsMicro: 0 }],
                ]),
              ],
              ['2027-01-16', new Map([['hl.perp.holders', { calls: 1, creditsMicro: 1_000_000 }]])],
            ]),
          ],
        ]),
      ],
    ]);
    const { keys, args } = encodeUsageTallies(tallies, 'batch-1');

    await kv.run(ADD_USAGE_SCRIPT, keys, args);

    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 4))).toEqual({
      'hl.perp.holders@2027-01-15': '3',
      'hl.perp.holders@2027-01-15#credits': '3000000',
      'usage.list@2027-01-15': '2',
      'hl.perp.holders@2027-01-16': '1',
      'hl.perp.holders@2027-01-16#credits': '1000000',
    });
    expect(decodeUsageHash(ACCOUNT, 4, await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 4)))).toEqual([
      { accountId: ACCOUNT, period: 4, endpoint: 'hl.perp.holders', day: '2027-01-15', calls: 3, creditsMicro: '3000000' },
      { accountId: ACCOUNT, period: 4, endpoint: 'usage.list', day: '2027-01-15', calls: 2, creditsMicro: '0' },
      { accountId: ACCOUNT, period: 4, endpoint: 'hl.perp.holders', day: '2027-01-16', calls: 1, creditsMicro: '1000000' },
    ]);
    expect(meterOfMember((await kv.spop(UsageMeterKeys.dirty, 10))[0])).toEqual({ member: `${ACCOUNT}:4`, accountId: ACCOUNT, period: 4 });
  });

  it('does not count the fields a claim carries besides its counts', () => {
    expect(decodeUsageHash(ACCOUNT, 0, { 'news.feed@2027-01-15': '1', '#batch': 'b-1', '#prev': '', '#synced': '0' })).toEqual([
      { accountId: ACCOUNT, period: 0, endpoint: 'news.feed', day: '2027-01-15', calls: 1, creditsMicro: '0' },
    ]);
  });

  it('reads fields that name no day, next to fields that do, as counts without a day', () => {
    const hash = { 'news.feed': '2', 'news.feed#credits': '2000000', 'news.feed@2027-01-15': '1', 'news.feed@2027-01-15#credits': '1000000' };

    expect(decodeUsageHash(ACCOUNT, 0, hash)).toEqual([
      { accountId: ACCOUNT, period: 0, endpoint: 'news.feed', day: null, calls: 2, creditsMicro: '2000000' },
      { accountId: ACCOUNT, period: 0, endpoint: 'news.feed', day: '2027-01-15', calls: 1, creditsMicro: '1000000' },
    ]);
  });

  it('reads a day that is not one as no day, so a sync never stops on a bad date', () => {
    expect(decodeUsageHash(ACCOUNT, 0, { 'news.feed@tomorrow': '1' })).toEqual([
      { accountId: ACCOUNT, period: 0, endpoint: 'news.feed', day: null, calls: 1, creditsMicro: '0' },
    ]);
  });

  it.each(['', 'no-period', ':3', `${ACCOUNT}:x`])('names no meter with the member %j', (member) => {
    expect(meterOfMember(member)).toBeUndefined();
  });
});
