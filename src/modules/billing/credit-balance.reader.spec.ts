import { randomUUID } from 'node:crypto';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { ApiCaller } from '../account/api-caller';
import { redisAdmission } from '../../../test/support/billing-kit';
import { AdmissionService } from './admission.service';
import { CreditAccount, CreditBalanceReader } from './credit-balance.reader';
import { addMonthsUtc } from './credit-period';
import { creditsToMicro, microToCredits } from './credit-units';
import { EndpointName } from './credit-costs';

const ANCHOR = new Date(Date.UTC(2027, 0, 1));
const NOW = new Date(Date.UTC(2027, 0, 15, 12));
const NEXT_PERIOD = new Date(addMonthsUtc(ANCHOR, 1).getTime() + 1000);

function account(overrides: Partial<CreditAccount> = {}): CreditAccount {
  return { id: randomUUID(), tier: 'pro', creditBalance: '10', creditEpoch: 0, creditPeriod: 0, resetAnchorAt: ANCHOR, ...overrides };
}

/** The key cache's view of the same account, as admission sees it. */
function callerOf(a: CreditAccount): ApiCaller {
  return {
    keyId: `key-${a.id}`,
    keyPrefix: 'mdk_12345678',
    accountId: a.id,
    walletAddress: '0xabc',
    tier: a.tier,
    resetAnchorAt: a.resetAnchorAt,
    resetAnchorText: a.resetAnchorAt.toISOString(),
    creditSeedMicro: creditsToMicro(a.creditBalance),
    creditEpoch: a.creditEpoch,
    creditPeriod: a.creditPeriod,
  };
}

describe(CreditBalanceReader.name, () => {
  let kv: MemoryKvStore;
  let admission: AdmissionService;
  let sut: CreditBalanceReader;

  /** PostgreSQL's view of each account: what a live balance seeds from. */
  const settled = new Map<string, CreditAccount>();

  beforeEach(() => {
    kv = new MemoryKvStore();
    settled.clear();
    const kit = redisAdmission(kv, (id) => {
      const a = settled.get(id)!;
      return { balanceMicro: creditsToMicro(a.creditBalance), epoch: a.creditEpoch, period: a.creditPeriod };
    });
    admission = kit.admission;
    sut = new CreditBalanceReader(kit.store);
  });

  /** The balance a paid call reports after it (X-Credits-Remaining, /account/credits), in credits. */
  async function call(a: CreditAccount, now: Date, endpoint: EndpointName = 'account.credits', cost = 1): Promise<string> {
    if ((settled.get(a.id)?.creditEpoch ?? -1) <= a.creditEpoch) settled.set(a.id, a);
    const result = await admission.admit({ caller: callerOf(a), endpoint, cost, requestId: randomUUID(), nowMs: now.getTime() });
    return microToCredits(result.admission.balanceMicro!);
  }

  it('reads what admission reports, and takes nothing itself', async () => {
    const a = account();

    expect(await sut.balanceOf(a, NOW)).toBe('10');
    const reported = await call(a, NOW);
    expect(reported).toBe('9');
    expect(await sut.balanceOf(a, NOW)).toBe(reported);
    expect(await sut.balanceOf(a, NOW)).toBe(reported);
    expect(await call(a, NOW, 'usage.list', 0)).toBe(reported);
  });

  it('reads the settled balance while the KV store holds none, to the micro-credit', async () => {
    expect(await sut.balanceOf(account({ creditBalance: '2.5' }), NOW)).toBe('2.5');
  });

  it('reads the quota once a new period began, before any call reset it, and what admission reports after', async () => {
    const a = account();
    await call(a, NOW);

    expect(await sut.balanceOf(a, NEXT_PERIOD)).toBe('10000000');
    const reported = await call(a, NEXT_PERIOD);
    expect(reported).toBe('9999999');
    expect(await sut.balanceOf(a, NEXT_PERIOD)).toBe(reported);
  });

  it('reads the settled balance of an operator change the KV store has not seen, and the live one once it has', async () => {
    const a = account();
    await call(a, NOW);
    const changed = { ...a, creditBalance: '5', creditEpoch: 1 };

    expect(await sut.balanceOf(changed, NOW)).toBe('5');
    expect(await call(changed, NOW)).toBe('4');
    expect(await sut.balanceOf(changed, NOW)).toBe('4');
    // An account read before the change sees the newer live balance, as a call with it would.
    expect(await sut.balanceOf(a, NOW)).toBe('4');
    expect(await call(a, NOW)).toBe('3');
  });

  it('reads no balance for a tier that is never metered', async () => {
    expect(await sut.balanceOf(account({ tier: 'free', creditBalance: '0' }), NOW)).toBeNull();
  });
});
