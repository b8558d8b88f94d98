import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// postgres.js 3.4.9 (the newest release) does not survive a database restart under load; run on install, this
// fixes its faults (porsager/postgres#1066, #1154, #1208; fixes proposed in #1168, #1176, #1209, none released)
// and adds the query timeout it lacks:
// - it batches small writes behind a setImmediate and, when the connection closes meanwhile, cancels that timer
//   without forgetting it: every later write on the reconnected connection waits for a timer that never fires,
//   so its queries hang. Forget the timer and its bytes when the connection closes;
// - a write that reaches the socket after it is gone throws from the immediate and ends the process. Fail the
//   connection's queries instead;
// - a reserved connection that closes while reserved is put back among the open ones when released, so every
//   later reservation gets a dead connection. Leave it closed, to reconnect like any other;
// - a connection that closes while it is also reconnecting, or after a socket error, keeps its query in flight
//   (and a half-read answer) into the next connection, where the query waits for an answer that never comes.
//   Fail every query in flight when the connection closes, and start the next one clean;
// - the array types a new connection reads are read by a query nobody awaits: when the connection closes
//   meanwhile, its rejection is unhandled and ends the process. The next connection reads them again;
// - even so, restarts under load still left a few queries in tens of thousands unanswered for seconds (reproduced
//   with three restarts under 8 concurrent clients; lost answers or slow commits, not settled). A query has no
//   timeout in postgres.js, so one such query stalls whatever waits for it. The new option `query_timeout`
//   (seconds) ends a connection that has waited that long without a byte of answer, failing its queries with
//   CONNECTION_CLOSED, which callers retry like any lost connection;
// - a reservation (sql.reserve) waiting for a connection when one closes is handed to that connection's reconnect,
//   which drops it to read the array types first: the reservation never resolves, and whatever waits for it hangs
//   (an admission, and every admission queued behind it; porsager/postgres#1195). The new connection now serves
//   the reservation it was opened for as it runs a query it was opened for, and a reservation that opens a
//   connection is no longer also queued for another one. Under a marker of its own, so that a checkout patched
//   before it takes it too;
// - a reservation whose connection is lost keeps sending its queries to that connection object, which the pool
//   meanwhile reconnects for whatever was waiting: a ROLLBACK sent after the loss went out on a connection still
//   starting and was never answered, and the queries it had queued behind a full pipeline never settled. Every query
//   of a lost reservation now fails with the loss, and releasing it leaves the connection to the pool. Under a
//   third marker, for the same reason.
// Idempotent; a file that no longer has this code is left alone, with a warning.
const MARKER = "/* svc: patched for database restarts, v2 */";

const CONNECTION_FIXES: [before: string, after: string][] = [
  [
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    `  function nextWrite(fn) {\n    ${MARKER}\n    if (!socket) {\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))\n      return false\n    }\n    const x = socket.write(chunk, fn)`,
  ],
  ["    clearImmediate(nextWriteTimer)\n    if (socket) {", "    clearImmediate(nextWriteTimer)\n    nextWriteTimer = chunk = null\n    if (socket) {"],
  ["    incomings = null\n    clearImmediate(nextWriteTimer)\n", "    incomings = null\n    clearImmediate(nextWriteTimer)\n    nextWriteTimer = chunk = null\n"],
  [
    "    socket.removeAllListeners()\n    socket = null\n\n    if (initial)\n      return reconnect()\n",
    `    socket.removeAllListeners()
    socket = null

    clearTimeout(answerTimer)
    answerTimer = null
    const lost = Errors.connection('CONNECTION_CLOSED', options)
    query && queryError(query, lost)
    while (sent.length)
      queryError(sent.shift(), lost)
    query = results = errorResponse = null
    result = new Result()

    if (initial)
      return reconnect()
`,
  ],
  ["    , nextWriteTimer = null\n", "    , nextWriteTimer = null\n    , answerTimer = null\n"],
  [
    "        initial.reserve && (initial = null)\n        return fetchArrayTypes()",
    "        initial.reserve && (initial = null)\n        return fetchArrayTypes().catch(noop)",
  ],
  ["      build(q)\n      return write(toBuffer(q))", "      build(q)\n      answerTimer || awaitAnswer()\n      return write(toBuffer(q))"],
  ["  function data(x) {\n    if (incomings) {", "  function data(x) {\n    answerTimer && awaitAnswer()\n    if (incomings) {"],
  [
    "    if (query)\n      return // Consider opening if able and sent.length < 50",
    "    !query && answerTimer && (clearTimeout(answerTimer), answerTimer = null)\n    if (query)\n      return // Consider opening if able and sent.length < 50",
  ],
  [
    "  function connectTimedOut() {",
    `  function awaitAnswer() {
    if (!options.query_timeout)
      return
    clearTimeout(answerTimer)
    answerTimer = setTimeout(noAnswer, options.query_timeout * 1000)
    answerTimer.unref && answerTimer.unref()
  }

  function noAnswer() {
    answerTimer = null
    if (!socket || !(query || sent.length))
      return
    const dead = socket
    dead.removeAllListeners()
    dead.on('error', () => { /* ended on purpose */ })
    dead.destroy()
    socket = dead
    closed(false)
  }

  function connectTimedOut() {`,
  ],
];

const POOL_FIXES: [before: string, after: string][] = [
  [
    "  const ints = ['idle_timeout', 'connect_timeout', 'max_lifetime', 'max_pipeline', 'backoff', 'keep_alive']",
    "  const ints = ['idle_timeout', 'connect_timeout', 'max_lifetime', 'max_pipeline', 'backoff', 'keep_alive', 'query_timeout']",
  ],
  ["    keep_alive      : 60,\n", "    keep_alive      : 60,\n    query_timeout   : null,\n"],
  [
    "    sql.release = () => {\n      c.reserved = null\n      onopen(c)\n    }",
    `    sql.release = () => {\n      ${MARKER}\n      c.reserved = null\n      ;(c.queue === reserved || c.queue === full) && onopen(c)\n    }`,
  ],
];

const RESERVATION_MARKER = "/* svc: reservations survive a lost connection, v1 */";

const RESERVATION_CONNECTION_FIXES: [before: string, after: string][] = [
  [
    `      if (needsTypes) {
        initial.reserve && (initial = null)
        return fetchArrayTypes().catch(noop)
      }

      initial && !initial.reserve && execute(initial)
      options.shared.retries = retries = 0
      initial = null
      return`,
    `      if (needsTypes)
        return fetchArrayTypes().catch(noop)

      ${RESERVATION_MARKER}
      const opener = initial
      initial = null
      options.shared.retries = retries = 0
      opener.reserve ? opener.reserve(connection) : execute(opener)
      return`,
  ],
];

const RESERVATION_POOL_FIXES: [before: string, after: string][] = [
  [
    "        const query = { reserve: resolve, reject }\n        queries.push(query)\n        closed.length && connect(closed.shift(), query)\n",
    `        ${RESERVATION_MARKER}\n        const query = { reserve: resolve, reject }\n        closed.length ? connect(closed.shift(), query) : queries.push(query)\n`,
  ],
];

const LOST_RESERVATION_MARKER = "/* svc: a lost reservation fails its queries, v1 */";

const LOST_RESERVATION_POOL_FIXES: [before: string, after: string][] = [
  [
    "    c.reserved.release = true\n\n    const sql = Sql(handler)\n    sql.release = () => {\n",
    `    c.reserved.release = true
    ${LOST_RESERVATION_MARKER}
    let lost = null
    const onLost = c.onclose = error => {
      lost = error
      while (queue.length)
        queue.shift().reject(error)
    }

    const sql = Sql(handler)
    sql.release = () => {
      if (lost)
        return
      c.onclose === onLost && (c.onclose = null)
`,
  ],
  [
    "    function handler(q) {\n      c.queue === full\n        ? queue.push(q)\n        : c.execute(q) || move(c, full)\n    }\n",
    "    function handler(q) {\n      lost\n        ? q.reject(lost)\n        : c.queue === full\n          ? queue.push(q)\n          : c.execute(q) || move(c, full)\n    }\n",
  ],
];

function patch(file: string, fixes: [string, string][], marker: string): void {
  if (!existsSync(file)) return;
  let text = readFileSync(file, "utf8");
  if (text.includes(marker)) return;
  if (!fixes.every(([before]) => text.split(before).length === 2)) {
    console.warn(`patch-postgres-js: ${file} is not the code this patch fixes; left as it is`);
    return;
  }
  for (const [before, after] of fixes) text = text.replace(before, after);
  writeFileSync(file, text);
}

// The package's entry for require is <root>/cjs/src/index.js.
const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve("postgres")), "../..");
for (const variant of ["src", "cjs/src", "cf/src"]) {
  patch(path.join(root, variant, "connection.js"), CONNECTION_FIXES, MARKER);
  patch(path.join(root, variant, "index.js"), POOL_FIXES, MARKER);
  patch(path.join(root, variant, "connection.js"), RESERVATION_CONNECTION_FIXES, RESERVATION_MARKER);
  patch(path.join(root, variant, "index.js"), RESERVATION_POOL_FIXES, RESERVATION_MARKER);
  patch(path.join(root, variant, "index.js"), LOST_RESERVATION_POOL_FIXES, LOST_RESERVATION_MARKER);
}
