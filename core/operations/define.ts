import type { z } from "zod";
import type { Operation, OperationCall, UseCaseRuntime } from "./types.js";

// The names a path's {placeholders} give its parameters: "/v1/tasks/{task_id}/cancel" → "task_id".
type PathParameterNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameterNames<Rest> : never;

// What the router matches for a path: each placeholder's text, by its name.
export type PathParameters<Path extends string> = { [Name in PathParameterNames<Path>]: string };

type ParameterSchema = z.ZodObject | undefined;

// What a row's use case is handed: its path parameters as its params schema reads them, and the query's fields the
// row documents, as the caller wrote them (the use case validates them itself, so REST and MCP refuse alike).
type ParamsOf<P extends ParameterSchema> = P extends z.ZodObject ? z.output<P> : Record<never, never>;
type QueryOf<Q extends ParameterSchema> = Q extends z.ZodObject ? { readonly [Field in keyof z.input<Q>]?: unknown } : Record<never, never>;

type UseCase<P extends ParameterSchema, Q extends ParameterSchema> = (core: UseCaseRuntime, call: OperationCall<ParamsOf<P>, QueryOf<Q>>) => Promise<unknown>;

// A row as written, but for the parts whose types its use case is typed from.
type RowFields = Omit<Operation, "path" | "params" | "query" | "run">;

// A path with placeholders needs a params schema naming exactly them; a path without any takes none.
type MatchingParams<Path extends string, P extends ParameterSchema> = [PathParameterNames<Path>] extends [never]
  ? { params?: undefined }
  : [PathParameterNames<Path>, keyof ParamsOf<P>] extends [keyof ParamsOf<P>, PathParameterNames<Path>]
    ? unknown
    : { params: `a params schema naming exactly the path's placeholders: ${PathParameterNames<Path>}` };

// One row of the operations table. Its use case is typed from the row's own schemas: `call.params` has the fields
// the params schema outputs, the compiler holding that schema to the path's placeholders, and `call.query` the
// query schema's fields. The surfaces call every row's use case alike, with the path parameters the router
// matched; they reach the use case read through the row's params schema. The row's ids and schemas keep their
// literal types: the REST server keys its hand-written routes by these ids, and MCP's tools extend these schemas.
export function defineOperation<
  const Row extends RowFields,
  const Path extends string,
  P extends ParameterSchema = undefined,
  Q extends ParameterSchema = undefined,
>(
  row: Row & { path: Path; params?: P; query?: Q; run?: UseCase<P, Q> } & MatchingParams<Path, P>,
): Omit<Row, "run"> & { path: Path; params: P; query: Q } & (Row extends { run: unknown } ? { run: NonNullable<Operation["run"]> } : unknown);

// Every row alike: the signature above is what each row is checked against.
export function defineOperation(row: AnyRow): unknown {
  const { run, params } = row;
  if (!run || !params) return row;
  return { ...row, run: (core: UseCaseRuntime, call: OperationCall) => run(core, { ...call, params: params.parse(call.params) }) };
}

// Any row: its use case a method, so that one typed for its own row's parameters is one of these.
interface AnyRow extends RowFields {
  path: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  run?(core: UseCaseRuntime, call: OperationCall): Promise<unknown>;
}
