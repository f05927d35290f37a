import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { KvScript } from '../../src/infra/kv/kv-store';
import { RedisKvStore, WRITE_BATCH } from '../../src/infra/kv/redis-kv.store';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Increments its key and answers the new count with the caller's tag, so each reply shows whose it is. */
const COUNT: KvScript<[string, number]> = {
  name: 'test-count',
  lua: `return {ARGV[1], redis.call('INCR', KEYS[1])}`,
  local: () => {
    throw new Error('not used');
  },
};

/** Counts the writes that reach the socket: one per _write or _writev call, each one system call. */
function countSocketWrites(stream: Socket): { writes: number; chunks: number } {
  const seen = { writes: 0, chunks: 0 };
  const target = stream as unknown as {
    _write: (...args: unknown[]) => void;
    _writev: (chunks: unknown[], ...rest: unknown[]) => void;
  };
  const write = target._write.bind(stream);
  const writev = target._writev.bind(stream);
  target._write = (...args) => {
    seen.writes += 1;
    seen.chunks += 1;
    write(...args);
  };
  target._writev = (chunks, ...rest) => {
    seen.writes += 1;
    seen.chunks += chunks.length;
    writev(chunks, ...rest);
  };
  return seen;
}

describe('RedisKvStore write coalescing (real Redis)', () => {
  const prefix = `test:coalesce:${randomBytes(6).toString('hex')}:`;
  let sut: RedisKvStore;

  beforeAll(async () => {
    sut = RedisKvStore.connect(REDIS_URL, prefix);
    await sut.ping();
    // Loads the script, so the calls below are single EVALSHA commands.
    await sut.run(COUNT, ['warm'], ['warm']);
  });

  afterAll(async () => {
    await sut.client.del(`${prefix}n`, `${prefix}warm`);
    await sut.close();
  });

  it(`sends the script calls of one event-loop turn in writes of up to ${WRITE_BATCH}, each answered in order`, async () => {
    const seen = countSocketWrites(sut.client.stream as Socket);
    const calls = 2 * WRITE_BATCH + 3;
    const replies = await Promise.all(Array.from({ length: calls }, (_, i) => sut.run(COUNT, ['n'], [`call-${i}`])));
    expect(replies).toEqual(Array.from({ length: calls }, (_, i) => [`call-${i}`, i + 1]));
    expect(seen.chunks).toBe(calls);
    expect(seen.writes).toBe(Math.ceil(calls / WRITE_BATCH));
  });

  it('writes a lone call at the end of its turn, without waiting for another', async () => {
    const seen = countSocketWrites(sut.client.stream as Socket);
    const first = await sut.run(COUNT, ['n'], ['lone']);
    const second = await sut.run(COUNT, ['n'], ['next']);
    expect(first[0]).toBe('lone');
    expect(second[1]).toBe(first[1] + 1);
    expect(seen.writes).toBe(2);
  });
});
