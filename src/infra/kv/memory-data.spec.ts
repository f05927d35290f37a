import { MemoryData } from './memory-data';

const T0 = Date.UTC(2027, 0, 15, 12, 0, 0);
const WRONGTYPE = /^WRONGTYPE/;
const NOT_AN_INTEGER = /^ERR value is not an integer/;

describe(MemoryData.name, () => {
  let now: number;
  let sut: MemoryData;

  beforeEach(() => {
    now = T0;
    sut = new MemoryData(() => now);
  });

  describe('expiry', () => {
    it('keeps a key until the injected clock reaches its expiry, then forgets it', () => {
      sut.set('k', 'v', 1_000);

      now = T0 + 999;
      expect(sut.get('k')).toBe('v');
      now = T0 + 1_000;
      expect(sut.get('k')).toBeNull();
      expect(sut.exists('k')).toBe(false);
    });

    it('drops expired keys that are never read again, as Redis does, once a minute at most', () => {
      // A rate-limit window per key and minute: counted, given its lease, then never read again.
      for (let minute = 0; minute < 60; minute++) {
        now = T0 + minute * 60_000;
        for (let key = 0; key < 10; key++) {
          sut.incrBy(`w:${key}:${minute}`, 1);
          sut.pexpire(`w:${key}:${minute}`, 120_000);
        }
      }
      sut.set('kept', 'v');

      // Only the windows of the last two minutes are still alive; the rest went in the sweeps.
      expect(sut.size).toBeLessThanOrEqual(3 * 10 + 1);
      expect(sut.get(`w:3:59`)).toBe('1');
      expect(sut.get('kept')).toBe('v');
    });

    it('never expires a key set without a ttl', () => {
      sut.set('k', 'v');

      now = T0 + 10 * 365 * 24 * 3600 * 1000;
      expect(sut.get('k')).toBe('v');
    });

    it('clears the old expiry when a key is set again without a ttl, as Redis SET does', () => {
      sut.set('k', 'v1', 1_000);
      sut.set('k', 'v2');

      now = T0 + 5_000;
      expect(sut.get('k')).toBe('v2');
    });

    it('keeps the expiry of a counter across incrBy, as Redis INCR does', () => {
      sut.incrBy('n', 1);
      sut.pexpire('n', 1_000);
      expect(sut.incrBy('n', 1)).toBe(2);

      now = T0 + 1_000;
      expect(sut.exists('n')).toBe(false);
      expect(sut.incrBy('n', 1)).toBe(1);
    });

    it('pexpire on a missing key creates nothing', () => {
      sut.pexpire('missing', 1_000);

      expect(sut.exists('missing')).toBe(false);
    });

    it('del reports an expired key as not existing', () => {
      sut.set('k', 'v', 1_000);
      now = T0 + 1_000;

      expect(sut.del('k')).toBe(false);
    });

    it('expires hashes, lists and sets too', () => {
      sut.hset('h', { a: '1' });
      sut.rpush('l', 'a');
      sut.sadd('s', 'a');
      for (const key of ['h', 'l', 's']) sut.pexpire(key, 10);

      now = T0 + 10;
      expect(sut.hgetall('h')).toEqual({});
      expect(sut.llen('l')).toBe(0);
      expect(sut.spop('s', 1)).toEqual([]);
    });
  });

  describe('types', () => {
    it('throws WRONGTYPE when a string is used as a hash, list or set', () => {
      sut.set('str', 'v');

      expect(() => sut.hget('str', 'f')).toThrow(WRONGTYPE);
      expect(() => sut.hset('str', { f: '1' })).toThrow(WRONGTYPE);
      expect(() => sut.rpush('str', 'a')).toThrow(WRONGTYPE);
      expect(() => sut.lrange('str', 0, -1)).toThrow(WRONGTYPE);
      expect(() => sut.sadd('str', 'a')).toThrow(WRONGTYPE);
    });

    it('throws WRONGTYPE when a hash, list or set is read as a string', () => {
      sut.hset('h', { a: '1' });
      sut.rpush('l', 'a');
      sut.sadd('s', 'a');

      expect(() => sut.get('h')).toThrow(WRONGTYPE);
      expect(() => sut.get('l')).toThrow(WRONGTYPE);
      expect(() => sut.get('s')).toThrow(WRONGTYPE);
      expect(() => sut.llen('h')).toThrow(WRONGTYPE);
      expect(() => sut.spop('l', 1)).toThrow(WRONGTYPE);
      expect(() => sut.hincrBy('s', 'f', 1)).toThrow(WRONGTYPE);
    });

    it('incrBy on a list key throws WRONGTYPE and leaves the list alone', () => {
      sut.rpush('l', '5');

      expect(() => sut.incrBy('l', 1)).toThrow(WRONGTYPE);
      expect(sut.lrange('l', 0, -1)).toEqual(['5']);
    });

    it('lets set replace a value of any type, as Redis SET does', () => {
      sut.rpush('k', 'a');
      sut.set('k', 'v');

      expect(sut.get('k')).toBe('v');
    });
  });

  describe('integers', () => {
    it('incrBy counts from 0 and keeps the value as a decimal string', () => {
      expect(sut.incrBy('n', 5)).toBe(5);
      expect(sut.incrBy('n', -7)).toBe(-2);
      expect(sut.get('n')).toBe('-2');
    });

    it.each(['abc', '1.5', '', ' 1', '1e3'])('incrBy on the non-integer %j throws', (value) => {
      sut.set('n', value);

      expect(() => sut.incrBy('n', 1)).toThrow(NOT_AN_INTEGER);
      expect(sut.get('n')).toBe(value);
    });

    it('hincrBy counts a field from 0 and throws on a non-integer field', () => {
      expect(sut.hincrBy('h', 'a', 3)).toBe(3);
      sut.hset('h', { b: 'x' });

      expect(() => sut.hincrBy('h', 'b', 1)).toThrow(NOT_AN_INTEGER);
      expect(sut.hgetall('h')).toEqual({ a: '3', b: 'x' });
    });

    it('prints large integers without exponent notation', () => {
      sut.set('n', '100000000000000');

      expect(sut.incrBy('n', -1_000_000)).toBe(99_999_999_000_000);
      expect(sut.get('n')).toBe('99999999000000');
    });
  });

  describe('lists', () => {
    beforeEach(() => {
      sut.rpush('l', 'a', 'b', 'c', 'd', 'e');
    });

    it.each<[number, number, string[]]>([
      [0, -1, ['a', 'b', 'c', 'd', 'e']],
      [-2, -1, ['d', 'e']],
      [1, -2, ['b', 'c', 'd']],
      [-100, 1, ['a', 'b']],
      [-100, -100, []],
      [3, 100, ['d', 'e']],
      [0, -5, ['a']],
      [0, -6, []],
      [3, 1, []],
      [5, 10, []],
      [-1, -2, []],
    ])('lrange(%i, %i) reads what Redis reads', (start, stop, expected) => {
      expect(sut.lrange('l', start, stop)).toEqual(expected);
    });

    it('lrange and ltrim return and keep nothing when stop lies further before the head than the list is long', () => {
      expect(sut.lrange('l', 0, -7)).toEqual([]);

      sut.ltrim('l', 0, -7);
      expect(sut.exists('l')).toBe(false);
    });

    it('ltrim keeps the range, counting negative indexes from the tail', () => {
      sut.ltrim('l', 1, -2);
      expect(sut.lrange('l', 0, -1)).toEqual(['b', 'c', 'd']);

      sut.ltrim('l', -2, -1);
      expect(sut.lrange('l', 0, -1)).toEqual(['c', 'd']);
    });

    it('ltrim deletes a list it empties', () => {
      sut.ltrim('l', 5, -1);

      expect(sut.exists('l')).toBe(false);
      expect(sut.llen('l')).toBe(0);
    });

    it('ltrim on a missing list creates nothing', () => {
      sut.ltrim('missing', 0, -1);

      expect(sut.exists('missing')).toBe(false);
    });

    it('rpush appends and answers the new length', () => {
      expect(sut.rpush('l', 'f', 'g')).toBe(7);
      expect(sut.lrange('l', -2, -1)).toEqual(['f', 'g']);
    });
  });

  describe('hashes', () => {
    it('hdel removes the field, and the hash once it is empty', () => {
      sut.hset('h', { a: '1', b: '2' });

      expect(sut.hdel('h', 'a')).toBe(true);
      expect(sut.hgetall('h')).toEqual({ b: '2' });
      expect(sut.hdel('h', 'b')).toBe(true);
      expect(sut.exists('h')).toBe(false);
    });

    it('hdel of a missing field or hash removes nothing', () => {
      sut.hset('h', { a: '1' });

      expect(sut.hdel('h', 'zzz')).toBe(false);
      expect(sut.hdel('missing', 'a')).toBe(false);
      expect(sut.exists('h')).toBe(true);
      expect(sut.exists('missing')).toBe(false);
    });

    it('hget answers null for a missing field or hash', () => {
      sut.hset('h', { a: '1' });

      expect(sut.hget('h', 'a')).toBe('1');
      expect(sut.hget('h', 'b')).toBeNull();
      expect(sut.hget('missing', 'a')).toBeNull();
    });
  });

  describe('sets', () => {
    it('sadd keeps distinct members and spop deletes the set once it is empty', () => {
      sut.sadd('s', 'a');
      sut.sadd('s', 'b');
      sut.sadd('s', 'a');

      const popped = sut.spop('s', 5);

      expect(popped.sort()).toEqual(['a', 'b']);
      expect(sut.exists('s')).toBe(false);
    });

    it('spop takes at most count members', () => {
      for (const m of ['a', 'b', 'c']) sut.sadd('s', m);

      expect(sut.spop('s', 2)).toHaveLength(2);
      expect(sut.spop('s', 2)).toHaveLength(1);
      expect(sut.spop('s', 2)).toEqual([]);
    });
  });

  describe('sorted sets', () => {
    it('counts members once, drops those scored up to a bound, and names the lowest (ties by member)', () => {
      sut.zadd('z', 30, 'c');
      sut.zadd('z', 10, 'b');
      sut.zadd('z', 10, 'a');
      sut.zadd('z', 20, 'a');

      expect(sut.zcard('z')).toBe(3);
      expect(sut.zfirst('z')).toEqual({ member: 'b', score: 10 });
      expect(sut.zremRangeByScoreUpTo('z', 20)).toBe(2);
      expect(sut.zfirst('z')).toEqual({ member: 'c', score: 30 });
      expect(sut.zrem('z', 'c')).toBe(true);
      expect(sut.exists('z')).toBe(false);
      expect(sut.zfirst('z')).toBeNull();
    });

    it('is a type of its own: a hash is no sorted set, nor the reverse', () => {
      sut.hset('h', { f: 'v' });
      sut.zadd('z', 1, 'm');

      expect(() => sut.zcard('h')).toThrow(WRONGTYPE);
      expect(() => sut.hget('z', 'm')).toThrow(WRONGTYPE);
    });
  });
});
