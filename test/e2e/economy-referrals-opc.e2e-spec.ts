import request from 'supertest';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { Decimal } from '../../src/common/decimal/decimal';
import { referralLevelFor } from '../../src/modules/referrals/referral-levels';
import { RewardRoundsPublisher } from '../../src/modules/rewards/reward-rounds.publisher';
import { signInWallets } from '../../src/simulator/sign-in-wallets';
import { SIMULATED_SERVICE_BUILDER } from '../../src/simulator/world/builders';
import { TestApp } from '../support/create-test-app';
import { builderFile, DISTRIBUTOR, signInTraders, startEconomyStack, Trader } from '../support/economy-stack';
import { Simulator, runJob } from '../support/hl-stack';
import { get } from '../support/http';
import { BACKEND, backend } from '../support/wallet-session';

const DAY_MS = 86_400_000;
const SEED = 41;

describe('Referrals, claim rounds and OPCs, signed in as simulated traders', () => {
  let sim: Simulator;
  let t: TestApp;
  let referrer: Trader;
  let refereeA: Trader;
  let refereeB: Trader;
  let other: Trader;

  const send = (method: 'post' | 'put', path: string, token: string, body: object = {}) =>
    request(t.server as Parameters<typeof request>[0])
      [method](`${BACKEND}${path}`)
      .set('authorization', `Bearer ${token}`)
      .send(body);
  const codeOf = async (trader: Trader) => (await get(t, '/account/referrals', trader.key)).body.data.refCode as string;
  const credits = async (trader: Trader) => (await get(t, '/account/credits', trader.key)).body.data.balance as string;

  beforeAll(async () => {
    ({ sim, t } = await startEconomyStack({ seed: SEED }));
    [referrer, refereeA, refereeB, other] = await signInTraders(t, signInWallets(sim.world, 4));
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  it('binds once, and refuses an unknown or malformed code, its own code, a second binding and a cycle, naming code', async () => {
    const bound = await send('post', '/referral/bind', refereeA.token, { code: (await codeOf(referrer)).toLowerCase() });
    expect(bound.status).toBe(200);
    expect(bound.body.data).toMatchObject({ isBound: true, referrerAddress: referrer.address });
    expect((await send('post', '/referral/bind', refereeB.token, { code: await codeOf(referrer) })).status).toBe(200);

    const refusals: Array<[Trader, unknown, RegExp]> = [
      [other, 'ZZZZZZZZZZ', /no account has this referral code/],
      [other, 'no!', /8 to 16 letters/],
      [other, await codeOf(other), /cannot refer itself/],
      [refereeA, await codeOf(other), /already bound/],
      // referrer → refereeA's code: refereeA is bound to referrer, so this would close a loop.
      [referrer, await codeOf(refereeA), /cycle/],
    ];
    for (const [trader, code, msg] of refusals) {
      const res = await send('post', '/referral/bind', trader.token, { code });
      expect({ code, status: res.status, errorCode: res.body.code }).toEqual({ code, status: 400, errorCode: 'VALIDATION_ERROR' });
      expect(res.body.msg).toMatch(/^code: /);
      expect(res.body.msg).toMatch(msg);
    }
    expect((await backend(t, 'get', '/referral/status', referrer.token)).body.data).toEqual((await get(t, '/account/referrals', referrer.key)).body.data);
  });

  it("counts referees' fills since they bound: volume, fees, the rebate at the level, and the aggregates beside the page", async () => {
    // Bound three days ago, so the simulator's history since then counts.
    await t.db.query(`UPDATE referral_bindings SET bound_at = now() - interval '3 days'`);
    expect((await runJob(t, 'economy.builder-fills')).status).toBe('ok');
    const [sums] = await t.db.query(
      `SELECT COALESCE(sum(volume_usd), 0)::text AS volume, COALESCE(sum(builder_fee), 0)::text AS fee FROM builder_fills
        WHERE builder = $1 AND user_address = ANY($2) AND fill_time >= now() - interval '3 days'`,
      [SIMULATED_SERVICE_BUILDER, [refereeA.address, refereeB.address]],
    );
    expect(new Decimal(sums.fee).gt(0)).toBe(true);
    // The simulated traders are busy: their level is whichever the table gives their volume.
    const level = referralLevelFor(sums.volume);
    const status = (await get(t, '/account/referrals', referrer.key)).body.data;
    expect(status).toMatchObject({ isBound: false, referrerAddress: null, currentLevel: level.level });
    expect(new Decimal(status.refereesTotalVolume).eq(sums.volume)).toBe(true);
    expect(new Decimal(status.builderRewards).eq(new Decimal(sums.fee).times(level.rebateRate))).toBe(true);

    const page = (await get(t, '/account/referrals/referees?limit=1', referrer.key)).body.data;
    expect(page).toMatchObject({
      page: 1,
      limit: 1,
      total: 2,
      hasMore: true,
      currentLevel: level.level,
      referralRebateRate: level.rebateRate,
      refereesTotalVolume: status.refereesTotalVolume,
    });
    expect(page.totalBuilderReward).toBe(status.builderRewards);
    expect(page.items[0]).toMatchObject({ userAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/), boundAt: expect.any(String) });
    expect(new Decimal(page.items[0].builderReward).eq(new Decimal(page.items[0].totalBuilderFee).times(level.rebateRate))).toBe(true);
    const second = (await get(t, '/account/referrals/referees?limit=1&page=2', referrer.key)).body.data;
    expect(new Set([page.items[0].userAddress, second.items[0].userAddress])).toEqual(new Set([refereeA.address, refereeB.address]));
  });

  it('publishes a round whose claims/all proofs verify and whose leaves sum to the rewards it closed', async () => {
    const status = (await get(t, '/account/referrals', referrer.key)).body.data;
    const [round] = (await t.app.get(RewardRoundsPublisher).publishAll()).filter((r) => r.program === 'referral');
    expect(round.leaves).toBe(1);
    const owed = new Decimal(status.builderRewards).shiftedBy(6).integerValue(Decimal.ROUND_FLOOR).toFixed();
    expect(round.totalBase).toBe(owed);

    const payload = (await get(t, '/account/referrals/claims/all', referrer.key)).body.data;
    expect(payload).toMatchObject({ roundIds: [round.roundId], amounts: [owed], account: referrer.address, distributor: DISTRIBUTOR });
    expect(StandardMerkleTree.verify(round.merkleRoot, ['address', 'uint256'], [referrer.address, payload.amounts[0]], payload.proofs[0])).toBe(true);
    expect((await get(t, '/account/referrals/claims/status', referrer.key)).body.data).toEqual({
      hasPendingClaim: true,
      totalClaimable: new Decimal(owed).shiftedBy(-6).toFixed(),
      nextRoundId: round.roundId + 1,
    });
    const claims = (await get(t, '/account/referrals/claims', referrer.key)).body.data;
    expect(claims).toEqual({
      rounds: [{ roundId: round.roundId, amount: owed, merkleRoot: round.merkleRoot, publishedAt: expect.any(String), claimed: false }],
      account: referrer.address,
      distributor: DISTRIBUTOR,
    });
    expect((await get(t, '/account/referrals/claims/all', refereeA.key)).body.data).toMatchObject({ roundIds: [], amounts: [], proofs: [] });
  });

  it('answers the four OPC reads with 403 FORBIDDEN, unbilled, until an OPC is active', async () => {
    expect((await get(t, '/account/opc', other.key)).body.data).toBeNull();
    const before = await credits(other);
    for (const path of ['/account/opc/revenue', '/account/opc/revenue/summary', '/account/opc/claimable', '/account/opc/claims']) {
      const res = await get(t, path, other.key);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 403, code: 'FORBIDDEN' });
      expect(res.body.msg).toMatch(/an active OPC is required/);
    }
    expect(await credits(other)).toBe(new Decimal(before).minus(1).toFixed()); // the credits read itself
  });

  it('creates an OPC, refuses bad settings naming the field, and once active reads its builder’s fills as revenue per day', async () => {
    // The simulated OPC builder with the most fills yesterday, whichever day that is.
    const yesterday = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS);
    const day = yesterday.toISOString().slice(0, 10);
    const files = await Promise.all(sim.world.builders.opcs.map(async ({ b }) => ({ builder: b, rows: await builderFile(sim, b, day) })));
    const { builder: opcBuilder, rows: opcRows } = files.sort((x, y) => y.rows.length - x.rows.length)[0];
    expect(opcRows.length).toBeGreaterThan(0);
    const valid = {
      name: ' Desk A ',
      subdomain: 'Desk-A',
      styleConfig: { primaryColor: '#0ea5e9', theme: 'dark' },
      frontendFeeTenthsBps: 25,
      builderAddress: opcBuilder,
    };
    const refusals: Array<[object, string]> = [
      [{ ...valid, subdomain: 'api' }, 'subdomain'],
      [{ ...valid, subdomain: '-bad-' }, 'subdomain'],
      [{ ...valid, frontendFeeTenthsBps: 101 }, 'frontendFeeTenthsBps'],
      [{ ...valid, builderAddress: SIMULATED_SERVICE_BUILDER }, 'builderAddress'],
      [{ ...valid, builderAddress: '0x1234' }, 'builderAddress'],
      [{ ...valid, logoUrl: 'http://insecure.example/logo.png' }, 'logoUrl'],
      [{ ...valid, styleConfig: { primaryColor: 'blue' } }, 'styleConfig.primaryColor'],
    ];
    for (const [body, field] of refusals) {
      const res = await send('put', '/opc', other.token, body);
      expect({ field, status: res.status, named: String(res.body.msg).startsWith(field) }).toEqual({ field, status: 400, named: true });
    }
    const created = await send('put', '/opc', other.token, valid);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ ownerAddress: other.address, name: 'Desk A', subdomain: 'desk-a', isActive: false, logoUrl: '' });
    const taken = await send('put', '/opc', referrer.token, { ...valid, builderAddress: '0x' + 'e'.repeat(40) });
    expect([taken.status, taken.body.msg]).toEqual([400, 'subdomain: "desk-a" is taken by another OPC']);
    expect((await get(t, '/account/opc/revenue', other.key)).status).toBe(403);

    const activated = await send('post', '/opc/activate', other.token);
    expect(activated.body.data.isActive).toBe(true);
    expect((await runJob(t, 'economy.builder-fills')).status).toBe('ok');

    const fees = opcRows.reduce((sum, row) => sum.plus(row.builderFee), new Decimal(0));
    const entries = (await get(t, '/account/opc/revenue?limit=100', other.key)).body.data;
    const entry = entries.items.find((e: { periodStart: string }) => e.periodStart === yesterday.toISOString());
    expect(entry).toMatchObject({ tokenSymbol: 'USDC', periodEnd: new Date(yesterday.getTime() + DAY_MS).toISOString() });
    expect(new Decimal(entry.amount).eq(fees)).toBe(true);

    const summary = (await get(t, '/account/opc/revenue/summary', other.key)).body.data;
    expect(summary).toMatchObject({ totalClaimed: '0', tokenSymbol: 'USDC' });
    expect(summary.pendingClaimable).toBe(summary.totalRevenue);
    expect((await get(t, '/account/opc/claimable', other.key)).body.data).toEqual({ claimable: '0', tokenSymbol: 'USDC' });

    const [round] = (await t.app.get(RewardRoundsPublisher).publishAll()).filter((r) => r.program === 'opc');
    const claimable = (await get(t, '/account/opc/claimable', other.key)).body.data.claimable;
    expect(new Decimal(claimable).shiftedBy(6).toFixed()).toBe(round.totalBase);
    const claims = (await get(t, '/account/opc/claims', other.key)).body.data;
    expect(claims).toMatchObject({ page: 1, total: 1, hasMore: false, account: other.address, distributor: DISTRIBUTOR });
    expect(claims.items[0]).toMatchObject({ roundId: round.roundId, amount: round.totalBase, claimed: false });
    expect((await get(t, '/account/opc', other.key)).body.data).toMatchObject({ isActive: true, builderAddress: opcBuilder });

    // Deactivated: the configuration stays readable, its revenue does not.
    await send('post', '/opc/deactivate', other.token);
    expect((await get(t, '/account/opc/claimable', other.key)).status).toBe(403);
  });
});
