import { DataSource } from 'typeorm';
import { HlAddressesRepository } from '../../src/modules/hl/jobs/hl-addresses.repository';
import { NotificationConditionsRepository } from '../../src/modules/notifications/jobs/notification-conditions.repository';
import { NotificationsGenerateJob } from '../../src/modules/notifications/jobs/notifications-generate.job';
import { openTestDbInOwnSchema } from '../support/test-db';

const MINUTE_MS = 60_000;

/**
 * notifications.generate on real PostgreSQL, in a schema of its own: the mids, markets and positions the /hl
 * jobs keep are seeded directly and driven into, through and out of each alert condition.
 */
describe(NotificationsGenerateJob.name, () => {
  let drop: () => Promise<void>;
  let db: DataSource;
  let sut: NotificationsGenerateJob;
  const now = new Date();
  const nowMinute = Math.floor(now.getTime() / MINUTE_MS);

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('notifications_generate', 2));
    sut = new NotificationsGenerateJob(new NotificationConditionsRepository(db), new HlAddressesRepository(db));
  });
  afterAll(() => drop());
  beforeEach(async () => {
    await db.query(`TRUNCATE notifications, notification_conditions, notification_settings, watchlist_entries, watchlist_groups, accounts CASCADE`);
    await db.query(`TRUNCATE hl_mids, hl_mid_samples, hl_markets, hl_positions, hl_addresses`);
  });

  async function account(wallet: string): Promise<string> {
    const [{ id }] = await db.query(`INSERT INTO accounts (wallet_address, tier) VALUES ($1, 'free') RETURNING id`, [wallet]);
    return id;
  }

  async function watch(accountId: string, coins: string[]): Promise<void> {
    const [{ id }] = await db.query(`INSERT INTO watchlist_groups (account_id, name) VALUES ($1, 'main') RETURNING id`, [accountId]);
    for (const coin of coins) await db.query(`INSERT INTO watchlist_entries (group_id, coin) VALUES ($1, $2)`, [id, coin]);
  }

  /** The mid an hour ago (sampled) and now. */
  async function prices(coin: string, hourAgo: string, mid: string): Promise<void> {
    await db.query(`INSERT INTO hl_mid_samples (coin, minute, px) VALUES ($1, $2, $3) ON CONFLICT (coin, minute) DO UPDATE SET px = EXCLUDED.px`, [
      coin,
      nowMinute - 60,
      hourAgo,
    ]);
    await db.query(`INSERT INTO hl_mids (coin, mid, updated_at) VALUES ($1, $2, now()) ON CONFLICT (coin) DO UPDATE SET mid = EXCLUDED.mid`, [coin, mid]);
  }

  async function mark(coin: string, markPx: string): Promise<void> {
    await db.query(
      `INSERT INTO hl_markets (market, coin, upstream_coin, mark_px) VALUES ('perp', $1, $1, $2)
       ON CONFLICT (market, coin) DO UPDATE SET mark_px = EXCLUDED.mark_px`,
      [coin, markPx],
    );
  }

  async function funding(coin: string, hourlyRate: string): Promise<void> {
    await db.query(
      `INSERT INTO hl_markets (market, coin, upstream_coin, mark_px, funding) VALUES ('perp', $1, $1, 100, $2)
       ON CONFLICT (market, coin) DO UPDATE SET funding = EXCLUDED.funding`,
      [coin, hourlyRate],
    );
  }

  async function position(address: string, coin: string, szi: string, liquidationPx: string): Promise<void> {
    await db.query(
      `INSERT INTO hl_positions (address, coin, szi, entry_px, leverage_type, leverage, position_value, unrealized_pnl, margin_used, liquidation_px, read_at)
       VALUES ($1, $2, $3, 100, 'cross', 10, 1000, 0, 100, $4, now())`,
      [address, coin, szi, liquidationPx],
    );
  }

  async function notifications(): Promise<Array<{ account: string; type: string; coin: string; message: string }>> {
    return db.query(`SELECT account_id AS account, type, coin, message FROM notifications ORDER BY id`);
  }

  it('alerts once when a watchlist coin moves beyond the threshold, not while it stays there, and once again after it cleared', async () => {
    const alice = await account('0x' + 'a'.repeat(40));
    const bob = await account('0x' + 'b'.repeat(40));
    await watch(alice, ['BTC', 'ETH']);
    await watch(bob, ['ETH']);
    await prices('BTC', '91720', '95000'); // +3.6 %: below the default 5 %
    await prices('ETH', '3000', '3050');

    expect((await sut.run(undefined, now)).rows).toBe(0);

    await prices('BTC', '91720', '97410'); // +6.2 %
    expect((await sut.run(undefined, now)).rows).toBe(1);
    expect(await notifications()).toEqual([{ account: alice, type: 'price_move', coin: 'BTC', message: 'BTC rose 6.2% in the last hour to 97,410' }]);

    await prices('BTC', '91720', '98000'); // still beyond: no second alert
    expect((await sut.run(undefined, now)).rows).toBe(0);

    await prices('BTC', '91720', '93000'); // cleared
    expect(await sut.run(undefined, now)).toMatchObject({ rows: 0, details: { holding: 0, cleared: 1 } });
    expect(await db.query(`SELECT * FROM notification_conditions`)).toEqual([]);

    await prices('BTC', '91720', '86000'); // -6.2 %: recurs, alerts once more
    expect((await sut.run(undefined, now)).rows).toBe(1);
    expect((await sut.run(undefined, now)).rows).toBe(0);
    expect((await notifications()).map((n) => n.message)).toEqual(['BTC rose 6.2% in the last hour to 97,410', 'BTC fell 6.2% in the last hour to 86,000']);

    // ETH moves 10 %: both watchers hear of it, each once.
    await prices('ETH', '3000', '3300');
    expect((await sut.run(undefined, now)).rows).toBe(2);
    expect(
      (await notifications())
        .filter((n) => n.coin === 'ETH')
        .map((n) => n.account)
        .sort(),
    ).toEqual([alice, bob].sort());
  });

  it("follows the account's threshold and switch, and ignores a reference sampled long before the window", async () => {
    const alice = await account('0x' + 'c'.repeat(40));
    await watch(alice, ['SOL', 'HYPE']);
    await db.query(`INSERT INTO notification_settings (account_id, settings) VALUES ($1, '{"priceMovePercent": 2}')`, [alice]);
    await prices('SOL', '200', '205'); // +2.5 %
    expect((await sut.run(undefined, now)).rows).toBe(1);

    // A sample 3 hours old is no reference for a move within the hour.
    await db.query(`INSERT INTO hl_mid_samples (coin, minute, px) VALUES ('HYPE', $1, 10)`, [nowMinute - 180]);
    await db.query(`INSERT INTO hl_mids (coin, mid, updated_at) VALUES ('HYPE', 20, now())`);
    expect((await sut.run(undefined, now)).rows).toBe(0);

    await db.query(`UPDATE notification_settings SET settings = '{"priceMoveEnabled": false}'`);
    await db.query(`DELETE FROM notification_conditions`);
    expect((await sut.run(undefined, now)).rows).toBe(0);
  });

  it("measures a move over the account's own window: a day's move alerts an account watching a day, not one watching the hour", async () => {
    const daily = await account('0x' + '1'.repeat(40));
    const hourly = await account('0x' + '2'.repeat(40));
    await watch(daily, ['SOL']);
    await watch(hourly, ['SOL']);
    await db.query(`INSERT INTO notification_settings (account_id, settings) VALUES ($1, '{"priceMoveWindowMinutes": 1440}')`, [daily]);
    // SOL rose 10 % over the day and stood still over the last hour.
    await db.query(`INSERT INTO hl_mid_samples (coin, minute, px) VALUES ('SOL', $1, 200), ('SOL', $2, 220)`, [nowMinute - 1440, nowMinute - 60]);
    await db.query(`INSERT INTO hl_mids (coin, mid, updated_at) VALUES ('SOL', 220, now())`);

    expect((await sut.run(undefined, now)).rows).toBe(1);
    expect(await notifications()).toEqual([{ account: daily, type: 'price_move', coin: 'SOL', message: 'SOL rose 10.0% in the last 24 hours to 220.00' }]);
  });

  it("alerts once when the wallet's position nears liquidation, again only after it cleared, and adds the wallet to the polled universe", async () => {
    const wallet = '0x' + 'd'.repeat(40);
    const alice = await account(wallet);
    await mark('BTC', '100000');
    await position(wallet, 'BTC', '0.5', '90000'); // 10 % away
    await position('0x' + 'e'.repeat(40), 'BTC', '1', '99000'); // a stranger's position: no account, no alert

    const first = await sut.run(undefined, now);
    expect(first).toMatchObject({ rows: 0, details: { walletsAdded: 1 } });
    expect(await db.query(`SELECT address, sources FROM hl_addresses`)).toEqual([{ address: wallet, sources: ['account'] }]);

    await mark('BTC', '94000'); // 4.3 % from the liquidation price
    expect(await sut.run(undefined, now)).toMatchObject({ rows: 1, details: { walletsAdded: 0 } });
    expect(await notifications()).toEqual([
      { account: alice, type: 'liquidation_risk', coin: 'BTC', message: 'Your BTC long is 4.3% from liquidation: mark 94,000, liquidation price 90,000' },
    ]);
    await mark('BTC', '93000');
    expect((await sut.run(undefined, now)).rows).toBe(0);
    await mark('BTC', '99000'); // cleared
    expect((await sut.run(undefined, now)).rows).toBe(0);
    await mark('BTC', '92000'); // recurs
    expect((await sut.run(undefined, now)).rows).toBe(1);
    expect((await notifications()).map((n) => n.message)).toEqual([
      'Your BTC long is 4.3% from liquidation: mark 94,000, liquidation price 90,000',
      'Your BTC long is 2.2% from liquidation: mark 92,000, liquidation price 90,000',
    ]);

    // Closing the position clears the condition too.
    await db.query(`DELETE FROM hl_positions WHERE address = $1`, [wallet]);
    expect((await sut.run(undefined, now)).rows).toBe(0);
    expect(await db.query(`SELECT * FROM notification_conditions`)).toEqual([]);
  });

  it("alerts once when a watchlist perp's funding goes beyond the threshold either way, and again only after it came back within", async () => {
    const alice = await account('0x' + 'f'.repeat(40));
    const bob = await account('0x' + '1'.repeat(40));
    await watch(alice, ['BTC', 'ETH']);
    await watch(bob, ['BTC']);
    await db.query(`INSERT INTO notification_settings (account_id, settings) VALUES ($1, '{"fundingRateAprPercent": 100}')`, [bob]);
    await funding('BTC', '0.0000125'); // 11 % a year: the resting rate
    await funding('ETH', '0.00004'); // 35 %
    expect((await sut.run(undefined, now)).rows).toBe(0);

    await funding('BTC', '0.0001'); // 87.6 %: beyond alice's default 50 %, within bob's 100 %
    expect((await sut.run(undefined, now)).rows).toBe(1);
    expect(await notifications()).toEqual([
      { account: alice, type: 'funding_rate', coin: 'BTC', message: 'BTC funding is +0.0100% an hour (87.6% a year): longs pay shorts' },
    ]);
    await funding('BTC', '0.00011'); // still beyond for alice (96 %), within bob's 100 %
    expect((await sut.run(undefined, now)).rows).toBe(0);
    await funding('BTC', '-0.00015'); // beyond the other way (131 %): the same condition holds on, for bob it begins
    expect((await sut.run(undefined, now)).rows).toBe(1);
    expect((await notifications()).at(-1)).toMatchObject({ account: bob, coin: 'BTC' });

    await funding('BTC', '0.00002'); // back within for both
    expect(await sut.run(undefined, now)).toMatchObject({ rows: 0, details: { cleared: 2 } });
    await funding('BTC', '0.00007'); // 61 %: alice again, once
    expect((await sut.run(undefined, now)).rows).toBe(1);
    expect((await sut.run(undefined, now)).rows).toBe(0);
    expect((await notifications()).filter((n) => n.account === alice).map((n) => n.message)).toEqual([
      'BTC funding is +0.0100% an hour (87.6% a year): longs pay shorts',
      'BTC funding is +0.0070% an hour (61.3% a year): longs pay shorts',
    ]);

    // Switched off: the holding condition clears and nothing new is sent.
    await db.query(`INSERT INTO notification_settings (account_id, settings) VALUES ($1, '{"fundingRateEnabled": false}')`, [alice]);
    expect(await sut.run(undefined, now)).toMatchObject({ rows: 0, details: { cleared: 1 } });
  });
});
