import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RewardProgram } from './reward-program';

/** Serialises publishing: round ids are one sequence, and two replicas closing a round at once must not both pay. */
const PUBLISH_LOCK = 7_365_201;

export interface RoundRow {
  roundId: number;
  amountBase: string;
  merkleRoot: string;
  publishedAt: Date;
  claimed: boolean;
}

export interface UnclaimedLeafRow {
  roundId: number;
  amountBase: string;
  proof: string[];
}

export interface NewLeaf {
  accountId: string;
  address: string;
  amountBase: string;
  proof: string[];
}

export interface NewRound {
  program: RewardProgram;
  distributor: string;
  merkleRoot: string;
  dump: unknown;
  totalBase: string;
  leaves: NewLeaf[];
}

/** Claim rounds and their leaves: what each account was paid into which round, and whether it claimed. */
@Injectable()
export class RewardRoundsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Runs `build` (which reads what is owed and makes the tree) and stores its round under the publish lock,
   * so what a round closes is read and written with no other round in between. Answers the new round id,
   * or null when `build` found nothing owed.
   */
  async publish(build: (tx: { publishedBase(program: RewardProgram): Promise<Map<string, string>> }) => Promise<NewRound | null>): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock($1)`, [PUBLISH_LOCK]);
      const round = await build({
        publishedBase: async (program) => {
          const rows: Array<{ accountId: string; base: string }> = await tx.query(
            `SELECT account_id AS "accountId", sum(amount_base)::text AS base FROM reward_leaves WHERE program = $1 GROUP BY account_id`,
            [program],
          );
          return new Map(rows.map((row) => [row.accountId, row.base]));
        },
      });
      if (round === null) return null;
      const [{ next }]: Array<{ next: number }> = await tx.query(`SELECT COALESCE(max(round_id), 0) + 1 AS next FROM reward_rounds`);
      await tx.query(
        `INSERT INTO reward_rounds (round_id, program, merkle_root, dump, total_base, leaf_count, distributor)
         VALUES ($1, $2, $3, $4::jsonb, $5::numeric, $6, $7)`,
        [next, round.program, round.merkleRoot, JSON.stringify(round.dump), round.totalBase, round.leaves.length, round.distributor],
      );
      await tx.query(
        `INSERT INTO reward_leaves (round_id, program, account_id, address, amount_base, proof)
         SELECT $1, $2, account_id, address, amount_base, proof
           FROM jsonb_to_recordset($3::jsonb) AS l(account_id uuid, address text, amount_base numeric, proof jsonb)`,
        [
          next,
          round.program,
          JSON.stringify(round.leaves.map((l) => ({ account_id: l.accountId, address: l.address, amount_base: l.amountBase, proof: l.proof }))),
        ],
      );
      return next;
    });
  }

  /** The account's rounds of the programme, newest first, with its amount in each. */
  async rounds(accountId: string, program: RewardProgram, page?: { offset: number; take: number }): Promise<RoundRow[]> {
    const params: unknown[] = [accountId, program];
    const paging = page ? `OFFSET $${params.push(page.offset)} LIMIT $${params.push(page.take)}` : '';
    return this.db.query(
      `SELECT l.round_id AS "roundId", l.amount_base::text AS "amountBase", r.merkle_root AS "merkleRoot", r.published_at AS "publishedAt",
              l.claimed_at IS NOT NULL AS claimed
         FROM reward_leaves l JOIN reward_rounds r ON r.round_id = l.round_id
        WHERE l.account_id = $1 AND l.program = $2
        ORDER BY l.round_id DESC ${paging}`,
      params,
    );
  }

  async countRounds(accountId: string, program: RewardProgram): Promise<number> {
    const [{ count }] = await this.db.query(`SELECT count(*)::int AS count FROM reward_leaves WHERE account_id = $1 AND program = $2`, [accountId, program]);
    return count;
  }

  /** The account's unclaimed leaves of the programme, oldest round first, with their proofs. */
  async unclaimed(accountId: string, program: RewardProgram): Promise<UnclaimedLeafRow[]> {
    return this.db.query(
      `SELECT round_id AS "roundId", amount_base::text AS "amountBase", proof FROM reward_leaves
        WHERE account_id = $1 AND program = $2 AND claimed_at IS NULL ORDER BY round_id`,
      [accountId, program],
    );
  }

  /** Claimed and unclaimed sums of the account's leaves in the programme, in base units. */
  async sums(accountId: string, program: RewardProgram): Promise<{ claimedBase: string; unclaimedBase: string; publishedBase: string }> {
    const [row] = await this.db.query(
      `SELECT COALESCE(sum(amount_base) FILTER (WHERE claimed_at IS NOT NULL), 0)::text AS "claimedBase",
              COALESCE(sum(amount_base) FILTER (WHERE claimed_at IS NULL), 0)::text AS "unclaimedBase",
              COALESCE(sum(amount_base), 0)::text AS "publishedBase"
         FROM reward_leaves WHERE account_id = $1 AND program = $2`,
      [accountId, program],
    );
    return row;
  }

  async nextRoundId(): Promise<number> {
    const [{ next }] = await this.db.query(`SELECT COALESCE(max(round_id), 0) + 1 AS next FROM reward_rounds`);
    return next;
  }

  /** Marks the leaf of `address` in round `roundId` claimed (once); answers whether a leaf was marked now. */
  async markClaimed({ roundId, address, at = new Date() }: { roundId: number; address: string; at?: Date }): Promise<boolean> {
    // Counted in a SELECT: TypeORM answers a bare UPDATE ... RETURNING with [rows, count].
    const [{ marked }]: Array<{ marked: number }> = await this.db.query(
      `WITH marked AS (UPDATE reward_leaves SET claimed_at = $3 WHERE round_id = $1 AND address = $2 AND claimed_at IS NULL RETURNING 1)
       SELECT count(*)::int AS marked FROM marked`,
      [roundId, address.toLowerCase(), at],
    );
    return marked > 0;
  }

  /** The block the Claimed-event scan of `distributor` has read up to, or undefined before its first run. */
  async scannedUpTo(distributor: string): Promise<number | undefined> {
    const [row] = await this.db.query(`SELECT last_block::text AS block FROM reward_claim_scans WHERE distributor = $1`, [distributor]);
    return row ? Number(row.block) : undefined;
  }

  async recordScan(distributor: string, lastBlock: number): Promise<void> {
    await this.db.query(
      `INSERT INTO reward_claim_scans (distributor, last_block) VALUES ($1, $2)
       ON CONFLICT (distributor) DO UPDATE SET last_block = EXCLUDED.last_block, updated_at = now()`,
      [distributor, lastBlock],
    );
  }
}
