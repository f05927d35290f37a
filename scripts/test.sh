#!/usr/bin/env bash
# The test command (npm test): unit specs, then integration and e2e against real PostgreSQL and Redis,
# the billing fault suite (test/faults), the e2e suite once per HTTP adapter, then the developer portal in
# headless Chromium (test/browser).
# Exits non-zero on any failure; ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
# A PostgreSQL with only its default databases gets the tests' database here.
node scripts/ensure-database.js || exit 1
# Every Redis key the tests write starts with test:<run id>: (test/support/test-env.ts); deleted at the end.
export TEST_RUN_ID="${TEST_RUN_ID:-$(date +%s)$$}"
results="$(mktemp -d)"
status=0

run() {
  local name="$1"; shift
  echo "== ${name}"
  npx jest "$@" --json --outputFile="${results}/${name}.json" || status=1
}

run unit --selectProjects unit
run integration --selectProjects integration --runInBand
run faults --selectProjects faults --runInBand
run e2e-express --selectProjects e2e --runInBand
TEST_HTTP_ADAPTER=fastify run e2e-fastify --selectProjects e2e --runInBand
run browser --selectProjects browser --runInBand
node scripts/delete-test-keys.js

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, ran = 0;
  for (const f of fs.readdirSync(process.argv[1])) {
    const r = JSON.parse(fs.readFileSync(process.argv[1] + "/" + f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites; ran++;
  }
  if (ran < 6) failed += 6 - ran;
  console.log(`tests: ${passed} passed, ${failed} failed`);
' "${results}" || status=1
rm -rf "${results}"
exit "${status}"
