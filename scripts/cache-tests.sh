#!/usr/bin/env bash
# cache-tests.fyi's suite (https://github.com/http-tests/cache-tests, Mark Nottingham's tests of HTTP caches, whose
# published results cover browsers, proxies and CDNs) against Ferry's HTTP cache, on loopback only:
#
#   FERRY_CACHE_TESTS=/path/to/cache-tests scripts/cache-tests.sh [transport:mode ...]
#                                         (default: ahc:private ahc:shared urlsession:private urlsession:shared)
#
# The suite's client talks to one base URL, as it does to a reverse proxy. For each run, ferry-cache-gateway (a
# Ferry session with an HTTPCache, in front of the suite's own server) is that URL. Each run's results land in
# .ci-work/cache-tests/TRANSPORT-MODE.json, and a summary line sets Ferry's counts beside the published results in
# the suite's results/ folder, scored by the suite's own rules (test-engine/lib/results.mjs).
#
# Needs node (14.8 or later) and a checkout of the suite; neither is part of Ferry and the checkout is not vendored.
# Without npm's `undici` (which this script does not install), the suite's four interim-response cases error out.
# Not part of the test run: RELIABILITY.md ("HTTP cache: cache-tests.fyi") has the latest results.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SUITE="${FERRY_CACHE_TESTS:?set FERRY_CACHE_TESTS to a checkout of https://github.com/http-tests/cache-tests}"
SUITE="$(cd "$SUITE" && pwd)"
RUNS=("$@")
[ ${#RUNS[@]} -gt 0 ] || RUNS=(ahc:private ahc:shared urlsession:private urlsession:shared)
SERVER_PORT="${FERRY_CACHE_TESTS_PORT:-18180}"
GATEWAY_PORT=$((SERVER_PORT + 1))
ROOT="$PWD"
OUT="$ROOT/.ci-work/cache-tests"
mkdir -p "$OUT"

TRAITS="AsyncHTTPClient,HTTPTypes,OpenAPI,Logging,Tracing,Metrics,ServiceLifecycle,WebSocket"
swift build --product ferry-cache-gateway --traits "$TRAITS" --scratch-path .build-traits
GATEWAY="$(swift build --traits "$TRAITS" --scratch-path .build-traits --show-bin-path)/ferry-cache-gateway"

# The suite's server listens on every interface; this preload keeps it on 127.0.0.1.
cat > "$OUT/loopback.mjs" <<'EOF'
import http from 'http'
const listen = http.Server.prototype.listen
http.Server.prototype.listen = function (port, ...rest) { return listen.call(this, port, '127.0.0.1', ...rest) }
EOF
# Counts by the suite's result kinds: pass, fail (required), optional fail (optimal), yes/no (check), setup fail,
# dependency fail (a test it depends on did not pass), retry (the server saw a request twice), untested.
cat > "$OUT/score.mjs" <<'EOF'
import fs from 'fs'
const suite = process.argv[2]
const { default: tests } = await import(`${suite}/tests/index.mjs`)
const { determineTestResult, resultTypes } = await import(`${suite}/test-engine/lib/results.mjs`)
const names = Object.fromEntries(Object.entries(resultTypes).map(([name, type]) => [type[2], name]))
function count (results) {
  const counts = {}
  for (const testSuite of tests) {
    for (const test of testSuite.tests) {
      const name = names[determineTestResult(tests, test.id, results)[2]]
      counts[name] = (counts[name] || 0) + 1
    }
  }
  return ['pass', 'fail', 'optional_fail', 'yes', 'no', 'setup_fail', 'dependency_fail', 'retry', 'untested']
    .map(name => `${name} ${counts[name] || 0}`).join(', ')
}
for (const file of process.argv.slice(3)) {
  const label = file.replace(/^.*\//, '').replace(/\.json$/, '')
  console.log(`${label.padEnd(22)} ${count(JSON.parse(fs.readFileSync(file)))}`)
}
EOF

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
(cd "$SUITE" && npm_config_protocol=http npm_config_port="$SERVER_PORT" npm_config_pidfile="$OUT/server.pid" \
  exec node --import "$OUT/loopback.mjs" test-engine/server/server.mjs) > "$OUT/server.log" 2>&1 &
pids+=($!)

wait_for() {
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "cache-tests.sh: nothing listens on 127.0.0.1:$1" >&2
  return 1
}
wait_for "$SERVER_PORT"

files=()
for run in "${RUNS[@]}"; do
  transport="${run%%:*}" mode="${run##*:}"
  "$GATEWAY" --port "$GATEWAY_PORT" --upstream "http://127.0.0.1:$SERVER_PORT" --transport "$transport" \
    --mode "$mode" > "$OUT/gateway-$transport-$mode.log" 2>&1 &
  gateway=$!
  wait_for "$GATEWAY_PORT"
  (cd "$SUITE" && npm_config_base="http://127.0.0.1:$GATEWAY_PORT" npm_package_config_id= \
    node --no-warnings test-engine/cli.mjs) > "$OUT/$transport-$mode.json" 2> "$OUT/$transport-$mode.log"
  kill "$gateway"
  wait "$gateway" 2>/dev/null || true
  files+=("$OUT/$transport-$mode.json")
done

echo "== cache-tests.fyi $(node -p "require('$SUITE/package.json').version"), by the suite's rules"
node --no-warnings "$OUT/score.mjs" "$SUITE" "${files[@]}" \
  "$SUITE"/results/{chrome,firefox,safari,squid,trafficserver,varnish,nginx,apache}.json
