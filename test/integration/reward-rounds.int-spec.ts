import { ConfigService } from '@nestjs/config';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { DataSource } from 'typeorm';
import { OpcRepository } from '../../src/modules/opc/opc.repository';
import { ReferralsRepository } from '../../src/modules/referrals/referrals.repository';
import { RewardClaimsService } from '../../src/modules/rewards/reward-claims.service';
import { RewardRoundsPublisher } from '../../src/modules/rewards/reward-rounds.publisher';
import { RewardRoundsRepository } from '../../src/modules/rewards/reward-rounds.repository';
import { openTestDbInOwnSchema } from '../support/test-db';
import { testConfig } from '../support/test-env';

const SERVICE = '0x' + '5'.repeat(40);
const DISTRIBUTOR = '0x' + 'd'.repeat(40);
const wallet = (c: string) => '0x' + c.repeat(40);

/**
 * Claim rounds on real PostgreSQL: leaves from referrers' rebates and OPC revenue, proofs that verify against
 * the stored root, and rounds that close only what earlier ones did not.
 */
describe(RewardRoundsPublisher.name, () => {
  let db: DataSource;
  let drop: () => Promise<void>;
  let sut: RewardRoundsPublisher;
  let claims: RewardClaimsService;
  let rounds: RewardRoundsRepository;

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('reward_rounds', 2));
    const config = new ConfigService(testConfig({ BUILDER_ADDRESS: SERVICE, REWARDS_DISTRIBUTOR_ADDRESS: DISTRIBUTOR })) as never;
    rounds = new RewardRoundsRepository(db);
    sut = new RewardRoundsPublisher(rounds, new ReferralsRepository(db), new OpcRepository(db), config);
    claims = new RewardClaimsService(rounds, config);
  });
  afterAll(() => drop());

  async function account(w: string): Promise<string> {
    const [{ id }] = await db.query(`INSERT INTO accounts (wallet_address, tier) VALUES ($1, 'free') RETURNING id`, [w]);
    return id;
  }

  let fillSeq = 0;
  async function fill(user: string, volume: string, fee: string, at = new Date()): Promise<void> {
    fillSeq++;
    await db.query(
      `INSERT INTO builder_fills (fill_key, builder, user_address, coin, market, side, px, sz, volume_usd, builder_fee, crossed, fill_time, source)
       VALUES ($1, $2, $3, 'BTC', 'perp', 'B', $4, 1, $4, $5, true, $6, 'daily_file')`,
      [`k${fillSeq}`, SERVICE, user, volume, fee, at],
    );
  }

  it('pays each referrer its rebate to the base unit, with proofs that verify, and closes only new rewards next time', async () => {
    const referrer = await account(wallet('1'));
    const small = await account(wallet('2'));
    const [refA, refB, refC] = [await account(wallet('a')), await account(wallet('b')), await account(wallet('c'))];
    for (const referee of [refA, refB])
      await new ReferralsRepository(db).bind(referee, (await db.query(`SELECT referral_code FROM accounts WHERE id = $1`, [referrer]))[0].referral_code);
    await new ReferralsRepository(db).bind(refC, (await db.query(`SELECT referral_code FROM accounts WHERE id = $1`, [small]))[0].referral_code);
    await fill(wallet('a'), '600000', '60.1234567'); // L1 (10 %) while the referees' volume is under 1,000,000
    await fill(wallet('b'), '300000', '30');
    await fill(wallet('c'), '100', '0.0000049'); // 10 % of it is 0.00000049: under one base unit, owed for later
    await fill(wallet('a'), '1000', '999', new Date(Date.now() - 86_400_000)); // before refA bound: not counted

    const [round] = await sut.publishAll();
    expect(round).toMatchObject({ program: 'referral', roundId: 1, leaves: 1, totalBase: '9012345' });
    const [stored] = await db.query(`SELECT merkle_root AS root, dump, total_base::text AS total, distributor FROM reward_rounds WHERE round_id = 1`);
    expect(stored).toMatchObject({ root: round.merkleRoot, total: '9012345', distributor: DISTRIBUTOR });

    const payload = await claims.claimAll({ accountId: referrer, walletAddress: wallet('1') }, 'referral');
    expect(payload).toEqual({ roundIds: [1], amounts: ['9012345'], proofs: [expect.any(Array)], account: wallet('1'), distributor: DISTRIBUTOR });
    const tree = StandardMerkleTree.load(stored.dump);
    expect(tree.root).toBe(round.merkleRoot);
    expect(StandardMerkleTree.verify(round.merkleRoot, ['address', 'uint256'], [wallet('1'), payload.amounts[0]], payload.proofs[0])).toBe(true);
    expect(StandardMerkleTree.verify(round.merkleRoot, ['address', 'uint256'], [wallet('1'), '9012346'], payload.proofs[0])).toBe(false);

    // Nothing new is owed: no round. Then the referees pass 1,000,000 (L2, 15 %): the next round pays the difference.
    expect(await sut.publishAll()).toEqual([]);
    await fill(wallet('b'), '100000', '10');
    const [second] = await sut.publishAll();
    // 15 % of 100.1234567 = 15.018518505 -> 15018518 base units, less the 9012345 already paid.
    expect(second).toMatchObject({ program: 'referral', roundId: 2, leaves: 1, totalBase: String(15018518 - 9012345) });
    const status = await claims.status({ accountId: referrer, walletAddress: wallet('1') }, 'referral');
    expect(status).toEqual({ hasPendingClaim: true, totalClaimable: '15.018518', nextRoundId: 3 });

    // Claimed (an operator's mark or the distributor's event): out of claims/all, still listed.
    expect(await rounds.markClaimed({ roundId: 1, address: wallet('1') })).toBe(true);
    expect(await rounds.markClaimed({ roundId: 1, address: wallet('1') })).toBe(false);
    expect((await claims.claimAll({ accountId: referrer, walletAddress: wallet('1') }, 'referral')).roundIds).toEqual([2]);
    expect((await claims.claims({ accountId: referrer, walletAddress: wallet('1') }, 'referral')).rounds.map((r) => [r.roundId, r.claimed])).toEqual([
      [2, false],
      [1, true],
    ]);
  });

  it('pays OPC owners their revenue in a round of its own, and many leaves each verify', async () => {
    await db.query(`TRUNCATE reward_leaves, reward_rounds, opc_revenue_entries, opc_configs CASCADE`);
    const owners: Array<{ id: string; w: string }> = [];
    for (let i = 0; i < 25; i++) {
      const w = '0x' + (0x100 + i).toString(16).padStart(40, '0');
      const id = await account(w);
      owners.push({ id, w });
      const [{ id: opc }] = await db.query(
        `INSERT INTO opc_configs (account_id, name, subdomain, frontend_fee_tenths_bps, builder_address, is_active) VALUES ($1, $2, $2, 25, $3, true) RETURNING id`,
        [id, `opc-${i}`, '0x' + (0x900 + i).toString(16).padStart(40, '0')],
      );
      await db.query(`INSERT INTO opc_revenue_entries (opc_id, period_start, period_end, amount) VALUES ($1, '2026-11-01', '2026-11-02', $2)`, [
        opc,
        `${i + 1}.5000005`,
      ]);
    }
    const published = await sut.publish('opc');
    expect(published).toMatchObject({ program: 'opc', leaves: 25 });
    // Σ (i + 1.5) for i < 25, each floored to base units (the 0.0000005 stays owed).
    expect(published!.totalBase).toBe(String(owners.reduce((sum, _o, i) => sum + (i + 1.5) * 1e6, 0)));
    for (const { id, w } of owners) {
      const { roundIds, amounts, proofs } = await claims.claimAll({ accountId: id, walletAddress: w }, 'opc');
      expect(roundIds).toEqual([published!.roundId]);
      expect(StandardMerkleTree.verify(published!.merkleRoot, ['address', 'uint256'], [w, amounts[0]], proofs[0])).toBe(true);
    }
  });
});
