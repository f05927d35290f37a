import { ConfigService } from '@nestjs/config';
import { Interface, toBeHex, toQuantity } from 'ethers';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { JobOutcome } from '../../src/jobs/job.types';
import { CLAIM_CONFIRMATIONS, ClaimedEventsJob, DISTRIBUTOR_EVENTS } from '../../src/modules/rewards/claimed-events.job';
import { RewardRoundsRepository } from '../../src/modules/rewards/reward-rounds.repository';
import { openTestDbInOwnSchema } from '../support/test-db';
import { testConfig } from '../support/test-env';

const DISTRIBUTOR = '0x' + 'd'.repeat(40);
const OTHER_CONTRACT = '0x' + 'e'.repeat(40);
const FROM_BLOCK = 1_000;
// Letters in the addresses: the event carries them checksummed (mixed case), the leaves store them lower-cased.
const ALICE = '0x' + 'a1'.repeat(20);
const BOB = '0x' + 'b2'.repeat(20);
const CAROL = '0x' + 'c3'.repeat(20);
/** Another event of the distributor with Claimed's layout: only its topic0 tells them apart. */
const OTHER_EVENTS = new Interface(['event Clawback(uint256 indexed roundId, address indexed account, uint256 amount)']);

interface ChainLog {
  address: string;
  blockNumber: number;
  topics: readonly string[];
  data: string;
}

interface LogFilter {
  address?: string | string[];
  topics?: Array<string | string[] | null>;
  fromBlock?: string;
  toBlock?: string;
}

/**
 * An Ethereum JSON-RPC endpoint holding a list of logs and a head block, speaking what ethers' JsonRpcProvider
 * sends: eth_getLogs answers the logs matching the filter's address, topic0 and block range, as a node does
 * (an absent address or topic matches any).
 */
class DistributorChain {
  head = 0;
  readonly logs: ChainLog[] = [];
  /** The [fromBlock, toBlock] of each eth_getLogs received, in order. */
  readonly ranges: Array<[number, number]> = [];
  /** Every JSON-RPC method received, in order. */
  readonly calls: string[] = [];
  url = '';
  private readonly server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const requests = JSON.parse(body) as unknown;
      const reply = Array.isArray(requests) ? requests.map((r) => this.one(r)) : this.one(requests as JsonRpcRequest);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(reply));
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  reset(head: number): void {
    this.head = head;
    this.logs.length = 0;
    this.ranges.length = 0;
    this.calls.length = 0;
  }

  /** Emits Claimed(roundId, account, amount) from `contract` (the distributor unless told) in `block`. */
  claimed({ block, roundId, account, amount = 1_000_000n, contract = DISTRIBUTOR }: ClaimedLog): void {
    const { topics, data } = DISTRIBUTOR_EVENTS.encodeEventLog('Claimed', [roundId, account, amount]);
    this.logs.push({ address: contract, blockNumber: block, topics, data });
  }

  emit(log: ChainLog): void {
    this.logs.push(log);
  }

  private one({ id, method, params }: JsonRpcRequest): object {
    this.calls.push(method);
    try {
      return { jsonrpc: '2.0', id, result: this.answer(method, params) };
    } catch (error) {
      return { jsonrpc: '2.0', id, error: { code: -32000, message: (error as Error).message } };
    }
  }

  private answer(method: string, params: unknown[]): unknown {
    if (method === 'eth_chainId') return '0x1';
    if (method === 'eth_blockNumber') return toQuantity(this.head);
    if (method === 'eth_getLogs') return this.getLogs(params[0] as LogFilter);
    throw new Error(`method ${method} not served`);
  }

  private getLogs({ address, topics, fromBlock, toBlock }: LogFilter): object[] {
    const from = Number(fromBlock ?? '0x0');
    const to = toBlock === undefined || toBlock === 'latest' ? this.head : Number(toBlock);
    this.ranges.push([from, to]);
    const addresses = address === undefined ? undefined : [address].flat().map((a) => a.toLowerCase());
    const topic0 = topics?.[0] ?? undefined;
    return this.logs
      .map((log, index) => ({ log, index }))
      .filter(({ log }) => log.blockNumber >= from && log.blockNumber <= to)
      .filter(({ log }) => !addresses || addresses.includes(log.address.toLowerCase()))
      .filter(({ log }) => topic0 === undefined || [topic0].flat().includes(log.topics[0]))
      .map(({ log, index }) => ({
        address: log.address,
        topics: log.topics,
        data: log.data,
        blockNumber: toQuantity(log.blockNumber),
        blockHash: toBeHex(log.blockNumber, 32),
        transactionHash: toBeHex(index + 1, 32),
        transactionIndex: '0x0',
        logIndex: toQuantity(index),
        removed: false,
      }));
  }
}

interface JsonRpcRequest {
  id: number;
  method: string;
  params: unknown[];
}

interface ClaimedLog {
  block: number;
  roundId: number;
  account: string;
  amount?: bigint;
  contract?: string;
}

/**
 * The Claimed-event scan on real PostgreSQL against a local JSON-RPC chain: which leaves it marks, which logs
 * it does not count, and which block ranges it asks for.
 */
describe(ClaimedEventsJob.name, () => {
  let db: DataSource;
  let drop: () => Promise<void>;
  let rounds: RewardRoundsRepository;
  const chain = new DistributorChain();

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('claimed_events', 2));
    rounds = new RewardRoundsRepository(db);
    await chain.start();
  });
  afterAll(async () => {
    await chain.close();
    await drop();
  });
  beforeEach(async () => {
    await db.query(`TRUNCATE reward_leaves, reward_rounds, reward_claim_scans, accounts CASCADE`);
    chain.reset(0);
  });

  /** One run of a job built as the module builds it; each run starts from what the database recorded. */
  async function scan(env: Record<string, string> = { REWARDS_RPC_URL: chain.url }): Promise<JobOutcome> {
    const config = new ConfigService(testConfig({ REWARDS_DISTRIBUTOR_ADDRESS: DISTRIBUTOR, REWARDS_FROM_BLOCK: String(FROM_BLOCK), ...env }));
    const sut = new ClaimedEventsJob(rounds, config as never);
    try {
      return await sut.run();
    } finally {
      sut.onApplicationShutdown();
    }
  }

  /** Published, unclaimed leaves: each address's leaf in each of its rounds. */
  async function seedLeaves(leaves: Record<string, number[]>): Promise<void> {
    const roundIds = [...new Set(Object.values(leaves).flat())];
    for (const roundId of roundIds) {
      await db.query(
        `INSERT INTO reward_rounds (round_id, program, merkle_root, dump, total_base, leaf_count, distributor)
         VALUES ($1, 'referral', $2, '{}'::jsonb, 0, 0, $3)`,
        [roundId, '0x' + String(roundId).repeat(64).slice(0, 64), DISTRIBUTOR],
      );
    }
    for (const [address, ids] of Object.entries(leaves)) {
      const [{ id }] = await db.query(`INSERT INTO accounts (wallet_address, tier) VALUES ($1, 'free') RETURNING id`, [address]);
      for (const roundId of ids) {
        await db.query(
          `INSERT INTO reward_leaves (round_id, program, account_id, address, amount_base, proof) VALUES ($1, 'referral', $2, $3, 1000000, '[]'::jsonb)`,
          [roundId, id, address],
        );
      }
    }
  }

  /** [roundId, address] of every claimed leaf, in round then address order. */
  async function claimedLeaves(): Promise<Array<[number, string]>> {
    const rows: Array<{ roundId: number; address: string }> = await db.query(
      `SELECT round_id AS "roundId", address FROM reward_leaves WHERE claimed_at IS NOT NULL ORDER BY round_id, address`,
    );
    return rows.map((row) => [row.roundId, row.address]);
  }

  it('marks claimed exactly the leaves whose Claimed event is 12 blocks deep, reading from REWARDS_FROM_BLOCK in 5,000-block ranges', async () => {
    await seedLeaves({ [ALICE]: [1, 2], [BOB]: [1], [CAROL]: [1] });
    chain.reset(12_100);
    const safeHead = 12_100 - CLAIM_CONFIRMATIONS;
    chain.claimed({ block: FROM_BLOCK - 1, roundId: 1, account: CAROL }); // before the distributor's first block: never read
    chain.claimed({ block: FROM_BLOCK, roundId: 1, account: ALICE });
    chain.claimed({ block: safeHead, roundId: 2, account: ALICE });
    chain.claimed({ block: safeHead + 1, roundId: 1, account: BOB }); // 11 blocks deep: not yet
    chain.claimed({ block: 5_000, roundId: 1, account: CAROL, contract: OTHER_CONTRACT });
    chain.emit({ address: DISTRIBUTOR, blockNumber: 6_000, ...OTHER_EVENTS.encodeEventLog('Clawback', [1, CAROL, 1_000_000n]) });

    const outcome = await scan();

    expect(outcome).toEqual({ rows: 2, details: { events: 2, scannedTo: safeHead } });
    expect(await claimedLeaves()).toEqual([
      [1, ALICE],
      [2, ALICE],
    ]);
    expect(chain.ranges).toEqual([
      [1_000, 5_999],
      [6_000, 10_999],
      [11_000, safeHead],
    ]);
    expect(await rounds.scannedUpTo(DISTRIBUTOR)).toBe(safeHead);
  });

  it('picks up a Claimed event on a later run once it is 12 blocks deep, reading only the blocks after the last one scanned', async () => {
    await seedLeaves({ [BOB]: [1] });
    chain.reset(12_100);
    chain.claimed({ block: 12_095, roundId: 1, account: BOB });

    expect(await scan()).toMatchObject({ rows: 0, details: { events: 0, scannedTo: 12_088 } });
    expect(await claimedLeaves()).toEqual([]);

    chain.head = 12_095 + CLAIM_CONFIRMATIONS;
    chain.ranges.length = 0;
    expect(await scan()).toMatchObject({ rows: 1, details: { events: 1, scannedTo: 12_095 } });
    expect(await claimedLeaves()).toEqual([[1, BOB]]);
    expect(chain.ranges).toEqual([[12_089, 12_095]]);
  });

  it('resumes after the block the last scan recorded, in 5,000-block ranges, and does not read earlier blocks again', async () => {
    await seedLeaves({ [ALICE]: [1], [BOB]: [1] });
    await rounds.recordScan(DISTRIBUTOR, 20_000);
    chain.reset(31_000);
    chain.claimed({ block: 20_000, roundId: 1, account: ALICE }); // already scanned
    chain.claimed({ block: 20_001, roundId: 1, account: BOB });

    expect(await scan()).toEqual({ rows: 1, details: { events: 1, scannedTo: 30_988 } });
    expect(await claimedLeaves()).toEqual([[1, BOB]]);
    expect(chain.ranges).toEqual([
      [20_001, 25_000],
      [25_001, 30_000],
      [30_001, 30_988],
    ]);
    expect(await rounds.scannedUpTo(DISTRIBUTOR)).toBe(30_988);
  });

  it('marks nothing for a Claimed event of a round or an account without a leaf, and counts the event', async () => {
    await seedLeaves({ [ALICE]: [1] });
    chain.reset(2_000);
    chain.claimed({ block: 1_100, roundId: 7, account: ALICE }); // no round 7
    chain.claimed({ block: 1_200, roundId: 1, account: CAROL }); // no leaf of Carol's in round 1

    expect(await scan()).toEqual({ rows: 0, details: { events: 2, scannedTo: 1_988 } });
    expect(await claimedLeaves()).toEqual([]);
  });

  it('marks nothing on a second run with no new blocks, and leaves the first claim time as it was', async () => {
    await seedLeaves({ [ALICE]: [1] });
    chain.reset(2_000);
    chain.claimed({ block: 1_500, roundId: 1, account: ALICE });
    expect(await scan()).toMatchObject({ rows: 1 });
    const [{ at: firstClaimedAt }] = await db.query(`SELECT claimed_at AS at FROM reward_leaves`);
    chain.ranges.length = 0;

    expect(await scan()).toEqual({ rows: 0, details: { events: 0, scannedTo: 1_988 } });
    expect(chain.ranges).toEqual([]);
    const [{ at }] = await db.query(`SELECT claimed_at AS at FROM reward_leaves`);
    expect(at).toEqual(firstClaimedAt);
  });

  it('skips without REWARDS_RPC_URL, asking no chain and marking nothing', async () => {
    await seedLeaves({ [ALICE]: [1] });
    chain.reset(2_000);
    chain.claimed({ block: 1_500, roundId: 1, account: ALICE });

    const outcome = await scan({});

    expect(outcome).toEqual({ rows: 0, details: { skipped: expect.stringContaining('REWARDS_RPC_URL') } });
    expect(chain.calls).toEqual([]);
    expect(await claimedLeaves()).toEqual([]);
    expect(await rounds.scannedUpTo(DISTRIBUTOR)).toBeUndefined();
  });
});
