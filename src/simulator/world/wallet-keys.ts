import { keccak256, SigningKey, toUtf8Bytes } from 'ethers';

/** secp256k1: field prime and group order. */
const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** What separates the keys of two consecutive indexes: a fixed, documented scalar. */
const KEY_STEP = BigInt(keccak256(toUtf8Bytes('hyperliquid-simulator:key-step'))) % N;
/** Keys derived per batch: one scalar multiplication and one modular inversion for this many addresses. */
const BATCH = 256;

/** Key families: the same index in two families gives unrelated keys. */
export type KeyKind = 'wallet' | 'vault' | 'builder';
const KIND_TAGS: Record<KeyKind, bigint> = { wallet: 0n, vault: 1n, builder: 2n };

/** The keys of one kind of account in one world. */
export interface KeyFamily {
  seed: number;
  kind: KeyKind;
}

interface Point {
  x: bigint;
  y: bigint;
}

function mod(value: bigint): bigint {
  const r = value % P;
  return r < 0n ? r + P : r;
}

function word(value: bigint): string {
  return value.toString(16).padStart(64, '0');
}

/** Inverse mod P by the extended Euclidean algorithm (far cheaper than a modular power with BigInt). */
function invert(value: bigint): bigint {
  let [r0, r1] = [P, mod(value)];
  let [t0, t1] = [0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return mod(t0);
}

/** Affine a + b for a ≠ ±b, given 1 / (b.x - a.x). */
function addWithInverse(a: Point, b: Point, inverse: bigint): Point {
  const lambda = mod((b.y - a.y) * inverse);
  const x = mod(lambda * lambda - a.x - b.x);
  return { x, y: mod(lambda * (a.x - x) - a.y) };
}

function double(a: Point): Point {
  const lambda = mod(3n * a.x * a.x * invert(2n * a.y));
  const x = mod(lambda * lambda - 2n * a.x);
  return { x, y: mod(lambda * (a.x - x) - a.y) };
}

/** Montgomery's trick: every inverse for the price of one inversion and three multiplications each. */
function invertAll(values: bigint[]): bigint[] {
  const prefix: bigint[] = [];
  let acc = 1n;
  for (const value of values) {
    prefix.push(acc);
    acc = mod(acc * value);
  }
  let inverse = invert(acc);
  const out = new Array<bigint>(values.length);
  for (let i = values.length - 1; i >= 0; i--) {
    out[i] = mod(inverse * prefix[i]);
    inverse = mod(inverse * values[i]);
  }
  return out;
}

function publicPoint(key: bigint): Point {
  const hex = SigningKey.computePublicKey(`0x${word(key)}`, false);
  return { x: BigInt(`0x${hex.slice(4, 68)}`), y: BigInt(`0x${hex.slice(68)}`) };
}

function addressOfPoint(point: Point): string {
  return `0x${keccak256(Buffer.from(word(point.x) + word(point.y), 'hex')).slice(-40)}`;
}

let stepMultiples: Point[] | null = null;
/** j·KEY_STEP·G for j in 1..BATCH-1 (at index j; index 0 unused), the same for every seed and family. */
function keyStepMultiples(): Point[] {
  if (!stepMultiples) {
    const step = publicPoint(KEY_STEP);
    stepMultiples = [step, step, double(step)];
    for (let j = 3; j < BATCH; j++) {
      const previous = stepMultiples[j - 1];
      stepMultiples.push(addWithInverse(previous, step, invert(step.x - previous.x)));
    }
  }
  return stepMultiples;
}

/** keccak256(abi.encode(uint256 seed, uint256 kind)) mod n: the key of index 0 of a family. */
function familyOffset({ seed, kind }: KeyFamily): bigint {
  const encoded = `0x${word(BigInt.asUintN(256, BigInt(Math.trunc(seed))))}${word(KIND_TAGS[kind])}`;
  return BigInt(keccak256(encoded)) % N;
}

/**
 * The keys of a family are offset + index × KEY_STEP (mod n): the public key of index i + j is then the one of
 * index i plus j·KEY_STEP·G, a point addition instead of a scalar multiplication, which makes 100,000 addresses
 * a matter of seconds rather than half a minute. (A key of 0, the one invalid value, has odds of 2^-256.)
 */
function keyScalar(offset: bigint, index: number): bigint {
  return (offset + BigInt(index) * KEY_STEP) % N;
}

/**
 * The private key of simulated account `index` of a family: `0x` + 64 hex digits, as ethers' Wallet takes it.
 * A test key: anyone with the simulator's seed can derive it.
 */
export function simulatedPrivateKey(family: KeyFamily, index: number): string {
  return `0x${word(keyScalar(familyOffset(family), index))}`;
}

/** Lower-case addresses of accounts 0..count-1 of a family: each is `new Wallet(simulatedPrivateKey(...)).address`. */
export function simulatedAddresses(family: KeyFamily, count: number): string[] {
  const offset = familyOffset(family);
  const multiples = keyStepMultiples();
  const addresses: string[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const size = Math.min(BATCH, count - start);
    const base = publicPoint(keyScalar(offset, start));
    const denominators = multiples.slice(1, size).map((multiple) => mod(multiple.x - base.x));
    // A zero would mean base = ±j·step (odds of 2^-256): ethers then derives the batch key by key.
    if (denominators.includes(0n)) {
      for (let j = 0; j < size; j++) addresses.push(addressOfPoint(publicPoint(keyScalar(offset, start + j))));
      continue;
    }
    const inverses = invertAll(denominators);
    addresses.push(addressOfPoint(base));
    for (let j = 1; j < size; j++) addresses.push(addressOfPoint(addWithInverse(base, multiples[j], inverses[j - 1])));
  }
  return addresses;
}
