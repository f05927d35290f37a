import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { MAX_ENTRIES_PER_GROUP, MAX_GROUPS_PER_ACCOUNT } from './watchlist-limits';

const UNIQUE_VIOLATION = '23505';

export interface GroupRow {
  id: string;
  name: string;
  entryCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface EntryRow {
  coin: string;
  addedAt: Date;
}

/** A group and its entries' count; `$1` is the account, so another account's group is simply absent. */
const GROUP_COLUMNS = `g.id, g.name, g.created_at, g.updated_at,
  (SELECT count(*)::int FROM watchlist_entries e WHERE e.group_id = g.id) AS entry_count`;

/**
 * SQL of watchlists. Every statement is scoped to the owning account. The limits are checked under a lock
 * (the account row for groups, the group row for entries), so concurrent writes queue and never exceed them.
 */
@Injectable()
export class WatchlistRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Oldest group first (creation order), with the count of all of them. */
  async listGroups(accountId: string, offset = 0, limit = MAX_GROUPS_PER_ACCOUNT): Promise<{ rows: GroupRow[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.db.query(`SELECT ${GROUP_COLUMNS} FROM watchlist_groups g WHERE g.account_id = $1 ORDER BY g.created_at, g.id OFFSET $2 LIMIT $3`, [
        accountId,
        offset,
        limit,
      ]) as Promise<Array<Record<string, unknown>>>,
      this.db.query(`SELECT count(*)::int AS total FROM watchlist_groups WHERE account_id = $1`, [accountId]) as Promise<Array<{ total: number }>>,
    ]);
    return { rows: rows.map(toGroupRow), total };
  }

  async findGroup(accountId: string, groupId: string, db: DataSource | EntityManager = this.db): Promise<GroupRow | undefined> {
    const rows: Array<Record<string, unknown>> = await db.query(`SELECT ${GROUP_COLUMNS} FROM watchlist_groups g WHERE g.account_id = $1 AND g.id = $2`, [
      accountId,
      groupId,
    ]);
    return rows.length === 0 ? undefined : toGroupRow(rows[0]);
  }

  /** Entries of one group in the order they were added (coin breaks ties, so pages never overlap). */
  async listEntries(groupId: string, offset = 0, limit = MAX_ENTRIES_PER_GROUP): Promise<EntryRow[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT coin, added_at FROM watchlist_entries WHERE group_id = $1 ORDER BY added_at, coin OFFSET $2 LIMIT $3`,
      [groupId, offset, limit],
    );
    return rows.map(toEntryRow);
  }

  /** Entries of several groups (the backend's one-read overview), by group, in the order they were added. */
  async listEntriesOfGroups(groupIds: string[]): Promise<Map<string, EntryRow[]>> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT group_id, coin, added_at FROM watchlist_entries WHERE group_id = ANY($1::uuid[]) ORDER BY added_at, coin`,
      [groupIds],
    );
    const byGroup = new Map<string, EntryRow[]>(groupIds.map((id) => [id, []]));
    for (const row of rows) byGroup.get(String(row.group_id))?.push(toEntryRow(row));
    return byGroup;
  }

  async createGroup(accountId: string, name: string): Promise<GroupRow> {
    return this.db.transaction(async (tx) => {
      await lockAccount(tx, accountId);
      const [{ count }]: Array<{ count: number }> = await tx.query(`SELECT count(*)::int AS count FROM watchlist_groups WHERE account_id = $1`, [accountId]);
      if (count >= MAX_GROUPS_PER_ACCOUNT) {
        throw AppError.validation('name', `the account already has ${MAX_GROUPS_PER_ACCOUNT} watchlist groups; delete one first`);
      }
      await assertNameFree(tx, accountId, name);
      const rows: Array<Record<string, unknown>> = await tx
        .query(`INSERT INTO watchlist_groups (account_id, name) VALUES ($1, $2) RETURNING id, name, created_at, updated_at, 0 AS entry_count`, [
          accountId,
          name,
        ])
        .catch(nameClash(name));
      return toGroupRow(rows[0]);
    });
  }

  async renameGroup(accountId: string, groupId: string, name: string): Promise<GroupRow | undefined> {
    return this.db.transaction(async (tx) => {
      await lockAccount(tx, accountId);
      await assertNameFree(tx, accountId, name, groupId);
      // Through a CTE: the driver answers a bare UPDATE ... RETURNING as [rows, count].
      const rows: Array<Record<string, unknown>> = await tx
        .query(
          `WITH g AS (UPDATE watchlist_groups SET name = $3, updated_at = now() WHERE account_id = $1 AND id = $2 RETURNING *)
           SELECT ${GROUP_COLUMNS} FROM g`,
          [accountId, groupId, name],
        )
        .catch(nameClash(name));
      return rows.length === 0 ? undefined : toGroupRow(rows[0]);
    });
  }

  /** The group as it was before deletion (its entries go with it). */
  async deleteGroup(accountId: string, groupId: string): Promise<GroupRow | undefined> {
    return this.db.transaction(async (tx) => {
      const group = await this.lockGroup(tx, accountId, groupId);
      if (group) await tx.query(`DELETE FROM watchlist_groups WHERE id = $1`, [groupId]);
      return group;
    });
  }

  /** Adds a coin, or answers the entry already there (`added: false`); undefined when the group is not the account's. */
  async addEntry(accountId: string, groupId: string, coin: string): Promise<(EntryRow & { added: boolean }) | undefined> {
    return this.db.transaction(async (tx) => {
      const group = await this.lockGroup(tx, accountId, groupId);
      if (!group) return undefined;
      const existing: Array<Record<string, unknown>> = await tx.query(`SELECT coin, added_at FROM watchlist_entries WHERE group_id = $1 AND coin = $2`, [
        groupId,
        coin,
      ]);
      if (existing.length > 0) return { ...toEntryRow(existing[0]), added: false };
      if (group.entryCount >= MAX_ENTRIES_PER_GROUP) {
        throw AppError.validation('coin', `the group already holds ${MAX_ENTRIES_PER_GROUP} coins; remove one first`);
      }
      const [row]: Array<Record<string, unknown>> = await tx.query(`INSERT INTO watchlist_entries (group_id, coin) VALUES ($1, $2) RETURNING coin, added_at`, [
        groupId,
        coin,
      ]);
      await tx.query(`UPDATE watchlist_groups SET updated_at = now() WHERE id = $1`, [groupId]);
      return { ...toEntryRow(row), added: true };
    });
  }

  /**
   * Removes the entry spelled `coin`, or else the one entry that matches it ignoring case. Answers the
   * removed coin, null when the group holds no such coin, undefined when the group is not the account's.
   */
  async removeEntry(accountId: string, groupId: string, coin: string): Promise<string | null | undefined> {
    return this.db.transaction(async (tx) => {
      const group = await this.lockGroup(tx, accountId, groupId);
      if (!group) return undefined;
      const matches: Array<{ coin: string }> = await tx.query(`SELECT coin FROM watchlist_entries WHERE group_id = $1 AND lower(coin) = lower($2)`, [
        groupId,
        coin,
      ]);
      const match = matches.find((m) => m.coin === coin)?.coin ?? (matches.length === 1 ? matches[0].coin : null);
      if (match === null) return null;
      await tx.query(`DELETE FROM watchlist_entries WHERE group_id = $1 AND coin = $2`, [groupId, match]);
      await tx.query(`UPDATE watchlist_groups SET updated_at = now() WHERE id = $1`, [groupId]);
      return match;
    });
  }

  /** The account's group, its row locked for the rest of the transaction (entry writes of one group queue). */
  private async lockGroup(tx: EntityManager, accountId: string, groupId: string): Promise<GroupRow | undefined> {
    const locked: unknown[] = await tx.query(`SELECT 1 FROM watchlist_groups WHERE account_id = $1 AND id = $2 FOR UPDATE`, [accountId, groupId]);
    return locked.length === 0 ? undefined : this.findGroup(accountId, groupId, tx);
  }
}

/**
 * The account row is the lock every group create and rename of the account queues on, so the count and the
 * name check that follow stay true until the transaction ends.
 */
async function lockAccount(tx: EntityManager, accountId: string): Promise<void> {
  await tx.query(`SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);
}

/** Checked before writing so a taken name is a plain 400, not a failed statement in the logs. */
async function assertNameFree(tx: EntityManager, accountId: string, name: string, exceptGroupId?: string): Promise<void> {
  const taken: unknown[] = await tx.query(
    `SELECT 1 FROM watchlist_groups WHERE account_id = $1 AND lower(name) = lower($2) AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [accountId, name, exceptGroupId ?? null],
  );
  if (taken.length > 0) throw nameTaken(name);
}

function nameTaken(name: string): AppError {
  return AppError.validation('name', `a watchlist group named ${JSON.stringify(name)} (ignoring case) already exists`);
}

/** The unique index on (account_id, lower(name)) refused the name (a backstop: assertNameFree runs first). */
function nameClash(name: string) {
  return (error: { code?: string }): never => {
    if (error.code === UNIQUE_VIOLATION) throw nameTaken(name);
    throw error;
  };
}

function toGroupRow(row: Record<string, unknown>): GroupRow {
  return {
    id: String(row.id),
    name: String(row.name),
    entryCount: Number(row.entry_count),
    createdAt: new Date(row.created_at as string | Date),
    updatedAt: new Date(row.updated_at as string | Date),
  };
}

function toEntryRow(row: Record<string, unknown>): EntryRow {
  return { coin: String(row.coin), addedAt: new Date(row.added_at as string | Date) };
}
