// Deletes the Redis keys one test run wrote (every test key starts with `test:<TEST_RUN_ID>:`, see
// test/support/test-env.ts), so the suite leaves nothing behind on a shared Redis.
const Redis = require('ioredis');

async function main() {
  const runId = process.env.TEST_RUN_ID;
  if (!runId) return;
  const redis = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 2 });
  let deleted = 0;
  try {
    for (let cursor = '0'; ;) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `test:${runId}:*`, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    redis.disconnect();
  }
  if (deleted > 0) console.log(`deleted ${deleted} Redis keys of this test run`);
}

main().catch((error) => {
  console.error(`could not delete this run's Redis keys: ${error.message}`);
});
