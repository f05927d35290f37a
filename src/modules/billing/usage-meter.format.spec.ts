import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { decodeUsageHash, encodeUsageTallies, meterOfMember, UsageMeterKeys, UsageTallies } from './usage-meter.format';
import { ADD_USAGE_SCRIPT } from './usage-meter.scripts';

const ACCOUNT = '0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f';

describe('usage meter format', () => {
  it('reads back, endpoint by endpoint, the tallies a flush adds to the live meter', async () => {
    const kv = new MemoryKvStore();
    const tallies: UsageTallies = new Map([
      [
        ACCOUNT,
        new Map([
          [
            4,
            new Map([
              ['hl.perp.holders', { calls: 3, creditsMicro: 3_000_000 }],
              ['usage.list', { calls: 2, creditsMicro: 0 }],
            ]),
          ],
        ]),
      ],
    ]);
    const { keys, args } = encodeUsageTallies(tallies);

    await kv.run(ADD_USAGE_SCRIPT, keys, args);

    expect(decodeUsageHash(ACCOUNT, 4, await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 4)))).toEqual([
      { accountId: ACCOUNT, period: 4, endpoint: 'hl.perp.holders', calls: 3, creditsMicro: '3000000' },
      { accountId: ACCOUNT, period: 4, endpoint: 'usage.list', calls: 2, creditsMicro: '0' },
    ]);
    expect(meterOfMember((await kv.spop(UsageMeterKeys.dirty, 10))[0])).toEqual({ member: `${ACCOUNT}:4`, accountId: ACCOUNT, period: 4 });
  });

  it('does not count the fields a claim carries besides its counts', () => {
    expect(decodeUsageHash(ACCOUNT, 0, { 'news.feed': '1', '#batch': 'b-1', '#prev': '', '#synced': '0' })).toEqual([
      { accountId: ACCOUNT, period: 0, endpoint: 'news.feed', calls: 1, creditsMicro: '0' },
    ]);
  });

  it.each(['', 'no-period', ':3', `${ACCOUNT}:x`])('names no meter with the member %j', (member) => {
    expect(meterOfMember(member)).toBeUndefined();
  });
});
