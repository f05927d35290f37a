import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { Page, toPage } from '../../common/pagination/page.dto';
import { CallerContext } from '../access/current-caller.decorator';
import { WalletPrincipal } from '../access/principal';
import {
  AddedWatchlistEntryDto,
  RemovedWatchlistEntryDto,
  WatchlistEntriesQueryDto,
  WatchlistEntryDto,
  WatchlistGroupDto,
  WatchlistGroupSummaryDto,
  WatchlistGroupsQueryDto,
  WatchlistGroupWithEntriesDto,
} from './dto/watchlist.dto';
import { WatchlistCoinsService } from './watchlist-coins.service';
import { EntryRow, GroupRow, WatchlistRepository } from './watchlist.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Watchlists: the wallet's writes (backend API) and the key holder's reads (public API), on the same rows
 * with no cache between them, so a write shows on the next read. A group of another account and a
 * malformed group id are one 404, so a response never tells whether a group exists.
 */
@Injectable()
export class WatchlistService {
  constructor(
    private readonly repository: WatchlistRepository,
    private readonly coins: WatchlistCoinsService,
  ) {}

  /** Every group of the wallet with every entry (at most 20 × 200): one read for the portal's view. */
  async listForWallet({ accountId }: WalletPrincipal): Promise<WatchlistGroupWithEntriesDto[]> {
    const { rows } = await this.repository.listGroups(accountId);
    const entries = await this.repository.listEntriesOfGroups(rows.map((g) => g.id));
    return rows.map((group) => ({ ...toGroupDto(group), entries: (entries.get(group.id) ?? []).map(toEntryDto) }));
  }

  async create({ accountId }: WalletPrincipal, name: string): Promise<WatchlistGroupDto> {
    return toGroupDto(await this.repository.createGroup(accountId, name));
  }

  async rename({ accountId }: WalletPrincipal, groupId: string, name: string): Promise<WatchlistGroupDto> {
    return toGroupDto(found(isGroupId(groupId) ? await this.repository.renameGroup(accountId, groupId, name) : undefined));
  }

  async remove({ accountId }: WalletPrincipal, groupId: string): Promise<WatchlistGroupDto> {
    return toGroupDto(found(isGroupId(groupId) ? await this.repository.deleteGroup(accountId, groupId) : undefined));
  }

  async addEntry({ accountId }: WalletPrincipal, groupId: string, input: string): Promise<AddedWatchlistEntryDto> {
    // The group first: another account's group is 404 whatever the coin.
    found(isGroupId(groupId) ? await this.repository.findGroup(accountId, groupId) : undefined);
    const coin = await this.coins.resolve(input);
    const entry = found(await this.repository.addEntry(accountId, groupId, coin));
    return { ...toEntryDto(entry), added: entry.added };
  }

  /** Idempotent: a coin the group does not hold answers `removed: false`, so a retried DELETE is harmless. */
  async removeEntry({ accountId }: WalletPrincipal, groupId: string, coin: string): Promise<RemovedWatchlistEntryDto> {
    if (!isGroupId(groupId)) throw notFound();
    const removed = await this.repository.removeEntry(accountId, groupId, coin);
    if (removed === undefined) throw notFound();
    return removed === null ? { coin, removed: false } : { coin: removed, removed: true };
  }

  /** Public: the key holder's groups, oldest first; counted, since an account holds at most 20. */
  async listGroups({ caller }: CallerContext, { page, limit }: WatchlistGroupsQueryDto): Promise<Page<WatchlistGroupSummaryDto>> {
    assertWithinOffsetCap(page, limit);
    const { rows, total } = await this.repository.listGroups(caller.accountId, offsetOf(page, limit), limit);
    return toPage({ items: rows.map(({ id, name, entryCount }) => ({ id, name, entryCount })), page, limit, total });
  }

  /** Public: one group's entries in the order added; total is the group's entry count. */
  async listEntries({ caller }: CallerContext, groupId: string, { page, limit }: WatchlistEntriesQueryDto): Promise<Page<WatchlistEntryDto>> {
    assertWithinOffsetCap(page, limit);
    const group = found(isGroupId(groupId) ? await this.repository.findGroup(caller.accountId, groupId) : undefined);
    const rows = await this.repository.listEntries(group.id, offsetOf(page, limit), limit);
    return toPage({ items: rows.map(toEntryDto), page, limit, total: group.entryCount });
  }
}

function isGroupId(value: string): boolean {
  return UUID.test(value);
}

function notFound(): AppError {
  return AppError.notFound('watchlist group');
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}

function toGroupDto(group: GroupRow): WatchlistGroupDto {
  return {
    id: group.id,
    name: group.name,
    entryCount: group.entryCount,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

function toEntryDto(entry: EntryRow): WatchlistEntryDto {
  return { coin: entry.coin, addedAt: entry.addedAt.toISOString() };
}
