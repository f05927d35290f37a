import { Wallet } from 'ethers';
import { MAX_PERP_BUILDER_FEE_RATE, SIMULATED_SERVICE_BUILDER } from './builders';
import { SimWorld } from './sim-world';
import { PerpSlot } from './wallet-model';

const SEED = 7;

function slotsOf(world: SimWorld): PerpSlot[] {
  return world.addresses.flatMap((_, index) => world.wallet(index).perps);
}

describe('simulated builders and keys', () => {
  let sut: SimWorld;
  beforeAll(() => {
    sut = new SimWorld({ wallets: 400, seed: SEED });
  });

  it('trades some positions through builders, most through the service and the rest through the OPCs', () => {
    const slots = slotsOf(sut);
    const built = slots.filter((slot) => slot.builder !== null);
    expect(built.length / slots.length).toBeGreaterThan(0.15);
    expect(built.length / slots.length).toBeLessThan(0.25);
    const service = built.filter((slot) => slot.builder!.b === SIMULATED_SERVICE_BUILDER).length;
    expect(service / built.length).toBeGreaterThan(0.6);
    expect(service / built.length).toBeLessThan(0.8);
    for (const opc of sut.builders.opcs) expect(built.some((slot) => slot.builder!.b === opc.b)).toBe(true);
  });

  it("charges rates in tenths of a basis point within the perp cap: the service's base rate or a tier's discount of it, one per OPC", () => {
    for (const slot of slotsOf(sut)) {
      if (!slot.builder) continue;
      expect(Number.isInteger(slot.builder.f)).toBe(true);
      if (slot.builder.b === sut.builders.service) expect([10, 9, 8]).toContain(slot.builder.f);
      expect(slot.builder.f).toBeGreaterThanOrEqual(8);
      expect(slot.builder.f).toBeLessThanOrEqual(MAX_PERP_BUILDER_FEE_RATE);
      const opc = sut.builders.opcs.find((candidate) => candidate.b === slot.builder!.b);
      if (opc) expect(slot.builder.f).toBe(opc.f);
    }
  });

  it('knows which accounts trade through each builder, and no others', () => {
    for (const builder of [sut.builders.service, ...sut.builders.opcs.map((opc) => opc.b)]) {
      const expected = sut.addresses.map((_, index) => index).filter((index) => sut.wallet(index).perps.some((slot) => slot.builder?.b === builder));
      expect(sut.clientsOf(builder)).toEqual(expected);
    }
    expect(sut.clientsOf('0x0000000000000000000000000000000000000001')).toBeUndefined();
    // Vaults trade without a front-end.
    for (let k = 0; k < sut.vaultAddresses.length; k++) expect(sut.wallet(400 + k).perps.every((slot) => slot.builder === null)).toBe(true);
  });

  it('puts the configured service builder, lower-cased, where the default was, and changes nothing else', () => {
    const own = '0xABCDEF0000000000000000000000000000000001';
    const other = new SimWorld({ wallets: 400, seed: SEED, serviceBuilder: own });
    expect(other.builders.service).toBe(own.toLowerCase());
    expect(other.clientsOf(own.toLowerCase())).toEqual(sut.clientsOf(SIMULATED_SERVICE_BUILDER));
    expect(other.clientsOf(SIMULATED_SERVICE_BUILDER)).toBeUndefined();
    expect(other.addresses).toEqual(sut.addresses);
  });

  it('gives each trader wallet the address of its ethers key, and no key to a vault', () => {
    for (const index of [0, 1, 255, 256, 399]) expect(new Wallet(sut.privateKey(index)).address.toLowerCase()).toBe(sut.addresses[index]);
    expect(() => sut.privateKey(400)).toThrow(RangeError);
  });
});
