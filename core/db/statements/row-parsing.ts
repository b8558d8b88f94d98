// The readers with which each statement of this folder parses the rows it answers, column by column: a row that
// does not have the shape its statement promises (a column renamed by a migration, a type changed, a cast
// forgotten) fails where it is read, naming the statement and the column, instead of travelling on as a value of
// the wrong type. Hand-written rather than a schema library's: these run for every row of the hottest
// statements, and a check of a few columns costs nothing beside the statement.

type Row = Readonly<Record<string, unknown>>;

export class UnexpectedRow extends Error {
  constructor(statement: string, column: string, expected: string, value: unknown) {
    super(`${statement}: column ${column} should be ${expected}, found ${value === null ? "null" : typeof value}`);
    this.name = "UnexpectedRow";
  }
}

export function text(row: Row, column: string, statement: string): string {
  const value = row[column];
  if (typeof value !== "string") throw new UnexpectedRow(statement, column, "text", value);
  return value;
}

export function textOrNull(row: Row, column: string, statement: string): string | null {
  const value = row[column];
  if (value === null) return null;
  if (typeof value !== "string") throw new UnexpectedRow(statement, column, "text or null", value);
  return value;
}

export function boolean(row: Row, column: string, statement: string): boolean {
  const value = row[column];
  if (typeof value !== "boolean") throw new UnexpectedRow(statement, column, "a boolean", value);
  return value;
}

// A bigint the statement casts to text (postgres.js and drizzle would otherwise answer a string or a number
// depending on the client's parsers).
export function bigintOfText(row: Row, column: string, statement: string): bigint {
  const value = row[column];
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw new UnexpectedRow(statement, column, "an integer as text", value);
  return BigInt(value);
}

// A timestamp: a Date from a client with postgres.js's parsers, its text from drizzle's (which leaves timestamps
// as Postgres wrote them).
export function timestamp(row: Row, column: string, statement: string): Date {
  const value = row[column];
  const date = value instanceof Date ? value : typeof value === "string" ? new Date(value) : null;
  if (date === null || Number.isNaN(date.getTime())) throw new UnexpectedRow(statement, column, "a timestamp", value);
  return date;
}

export function integer(row: Row, column: string, statement: string): number {
  const value = row[column];
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new UnexpectedRow(statement, column, "an integer", value);
  return value;
}
