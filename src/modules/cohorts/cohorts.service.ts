import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { WalletPrincipal } from '../access/principal';
import { HlAddressesRepository } from '../hl/jobs/hl-addresses.repository';
import { MAX_ADDRESSES_PER_COHORT, MAX_COHORTS_PER_ACCOUNT } from './cohort-limits';
import { CohortMemberInput, CohortMemberRow, CohortRow, CohortsRepository } from './cohorts.repository';
import { CohortDto, CohortSummaryDto } from './dto/cohort.dto';
import { AddCohortAddressesDto, CreateCohortDto } from './dto/cohort-write.dto';

/**
 * The signed-in wallet's cohorts. Each write runs under the account's lock, so limits hold under
 * concurrent requests; every member also joins the address universe the position jobs poll.
 */
@Injectable()
export class CohortsService {
  constructor(
    private readonly cohorts: CohortsRepository,
    private readonly universe: HlAddressesRepository,
  ) {}

  async list({ accountId }: WalletPrincipal): Promise<CohortSummaryDto[]> {
    return (await this.cohorts.list(accountId)).map(toSummary);
  }

  get({ accountId }: WalletPrincipal, id: string): Promise<CohortDto> {
    return this.read(accountId, id);
  }

  async create({ accountId }: WalletPrincipal, { name, addresses }: CreateCohortDto): Promise<CohortDto> {
    const members = dedupeMembers(addresses ?? []);
    const id = await this.cohorts.inAccountLock(accountId, async (tx) => {
      if ((await this.cohorts.countCohorts(tx, accountId)) >= MAX_COHORTS_PER_ACCOUNT) {
        throw AppError.validation('name', `the wallet already has ${MAX_COHORTS_PER_ACCOUNT} cohorts, the most it may hold; delete one first`);
      }
      await this.assertNameFree(tx, { accountId, name });
      const created = await this.cohorts.insert(tx, { accountId, name });
      if (members.length > 0) await this.cohorts.upsertMembers(tx, created, members);
      return created;
    });
    await this.joinUniverse(members);
    return this.read(accountId, id);
  }

  async rename({ accountId }: WalletPrincipal, id: string, name: string): Promise<CohortDto> {
    await this.cohorts.inAccountLock(accountId, async (tx) => {
      await this.requireOwned(accountId, id, tx);
      await this.assertNameFree(tx, { accountId, name, exceptId: id });
      await this.cohorts.rename(tx, { id, name });
    });
    return this.read(accountId, id);
  }

  async delete({ accountId }: WalletPrincipal, id: string): Promise<CohortSummaryDto> {
    return this.cohorts.inAccountLock(accountId, async (tx) => {
      const cohort = await this.requireOwned(accountId, id, tx);
      await this.cohorts.delete(tx, id);
      return toSummary(cohort);
    });
  }

  /** Adds members or replaces their tags; a member already present is no error and no change without tags. */
  async addMembers({ accountId }: WalletPrincipal, id: string, { addresses }: AddCohortAddressesDto): Promise<CohortDto> {
    const members = dedupeMembers(addresses);
    await this.cohorts.inAccountLock(accountId, async (tx) => {
      await this.requireOwned(accountId, id, tx);
      await this.cohorts.upsertMembers(tx, id, members);
      // Counted after the insert, inside the lock: a refusal rolls the whole request back.
      if ((await this.cohorts.countMembers(tx, id)) > MAX_ADDRESSES_PER_COHORT) {
        throw AppError.validation('addresses', `a cohort holds at most ${MAX_ADDRESSES_PER_COHORT} addresses; remove some first`);
      }
    });
    await this.joinUniverse(members);
    return this.read(accountId, id);
  }

  /** Addresses not in the cohort are ignored; they stay in the polled universe either way. */
  async removeMembers({ accountId }: WalletPrincipal, id: string, addresses: string[]): Promise<CohortDto> {
    await this.cohorts.inAccountLock(accountId, async (tx) => {
      await this.requireOwned(accountId, id, tx);
      await this.cohorts.removeMembers(tx, id, addresses);
    });
    return this.read(accountId, id);
  }

  /** Another account's cohort answers as a missing one: its existence is not revealed. */
  async requireOwned(accountId: string, id: string, tx?: EntityManager): Promise<CohortRow> {
    const cohort = await this.cohorts.findOwned({ accountId, id }, tx);
    if (!cohort) throw AppError.notFound('cohort');
    return cohort;
  }

  private async read(accountId: string, id: string): Promise<CohortDto> {
    const cohort = await this.requireOwned(accountId, id);
    return toCohort(cohort, await this.cohorts.members(id));
  }

  private async assertNameFree(tx: EntityManager, args: { accountId: string; name: string; exceptId?: string }): Promise<void> {
    if (await this.cohorts.nameTaken(tx, args)) throw AppError.validation('name', 'the wallet already has a cohort of that name (ignoring case)');
  }

  /**
   * After the commit, so a refused request adds nothing. A new address is due for a read at once; the
   * owner's tags stay private (they are not copied to hl_addresses, whose tags every /hl reader sees).
   */
  private async joinUniverse(members: CohortMemberInput[]): Promise<void> {
    await this.universe.upsertAddresses({ addresses: members.map((m) => m.address), source: 'cohort' });
  }
}

/** One entry per address; when an address repeats, its last entry wins. Tags are deduplicated. */
function dedupeMembers(members: CohortMemberInput[]): CohortMemberInput[] {
  const byAddress = new Map<string, CohortMemberInput>();
  for (const { address, tags } of members) {
    byAddress.delete(address);
    byAddress.set(address, { address, tags: tags === undefined ? undefined : [...new Set(tags)] });
  }
  return [...byAddress.values()];
}

function toSummary(row: CohortRow): CohortSummaryDto {
  return {
    id: row.id,
    name: row.name,
    addressCount: row.address_count,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function toCohort(row: CohortRow, members: CohortMemberRow[]): CohortDto {
  return {
    ...toSummary(row),
    addresses: members.map((m) => ({ address: m.address, tags: m.tags, addedAt: new Date(m.added_at).toISOString() })),
  };
}
