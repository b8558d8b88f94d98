// A statement that failed because its connection was lost, not because of what it asked: the server ended the
// session (pg_terminate_backend, a restart: SQLSTATE 57P01–57P03, or class 08), or the socket died under it
// (postgres.js's CONNECTION_CLOSED, which patches/postgres+3.4.9.patch also gives a query left unanswered, and
// the system's resets). The same statement on another connection may well succeed. A client ended on purpose
// (CONNECTION_ENDED, CONNECTION_DESTROYED) is not lost: the process is stopping.
const LOST_CODES = new Set(["CONNECTION_CLOSED", "CONNECT_TIMEOUT", "ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "57P01", "57P02", "57P03"]);

// When the database ends every session at once, each connection of a pool learns it only as its own socket is
// read: a second try sent at once can go out on another connection already dead. Measured under terminations
// of every session, a pause of 20 ms was enough for the pool to have replaced them all; it is paid only on a loss.
const PAUSE_BEFORE_RETRY_MS = 20;

export function isLostConnection(error: unknown): boolean {
  // drizzle wraps the driver's error ("Failed query: …"); the innermost cause is the driver's.
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && (LOST_CODES.has(code) || code.startsWith("08"))) return true;
  }
  return false;
}

// Runs a statement, and once more on a fresh connection when its connection was lost. Only for work that may run
// twice: a statement whose first run committed before its answer was lost has then taken effect twice.
export async function retryOnLostConnection<T>(statement: () => Promise<T>): Promise<T> {
  try {
    return await statement();
  } catch (error) {
    if (!isLostConnection(error)) throw error;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_BEFORE_RETRY_MS));
    return statement();
  }
}
