import postgres from "postgres";
import { artifactPlaceholder, MAX_ARTIFACTS_PER_TASK, PLACEHOLDERS, type PreparedTemplate } from "./template-rows.js";

// A year of finished tasks written straight into a database, set-based (INSERT … SELECT over generate_series),
// as copies of the template tasks: task i is created at an even step through the year ending now, belongs to a
// tenant drawn with a skew (a few tenants with many tasks, most with few), and copies the template its number
// hashes to. Each copy has the template's ledger rows (a hold, then its capture or release), idempotency key
// (expiring 24 hours after its creation), events and artifacts, each at the template's offset from the task's
// creation; each tenant has an API key, a grant and an account that agrees with its ledger. Every table is written
// in time order, as a live service fills it, and analyzed at the end.
//
// Task number i belongs to the measured tenant when i is a multiple of `measuredEvery`. A plan with
// `onlyMeasured` writes only those: the same tasks of that tenant, at the same times, and nothing else — the empty
// database's counterpart of the seeded one.

export interface SeedPlan {
  tasks: number;
  tenants: number;
  measuredEvery: number;
  onlyMeasured: boolean;
  // Credits granted to the measured tenant beyond what its tasks spent, for the loads that create more.
  measuredExtraMicro: bigint;
  region: string;
  now: Date;
}

export interface SeedResult {
  measuredTenantId: string;
  tasks: number;
  seconds: number;
  steps: Record<string, number>;
}

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const OTHER_TENANT_EXTRA_MICRO = 50_000_000n;
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

// Crockford base32 of a millisecond time in 10 characters, as core/ids.ts writes it, then 16 characters of
// md5: a time-ordered id in the service's format.
const CROCKFORD_TIME = Array.from({ length: 10 }, (_, k) => `substr('${ALPHABET}', ((ms >> ${5 * (9 - k)}) & 31)::int + 1, 1)`).join(" || ");
const ID_FUNCTION = `
create function pg_temp.seed_id(prefix text, at timestamptz, salt text) returns text language plpgsql immutable as $$
  declare ms bigint := floor(extract(epoch from at) * 1000)::bigint;
  begin
    return prefix || '_' || ${CROCKFORD_TIME} || substr(md5(salt), 1, 16);
  end
$$`;

// A number in [0, 1) from a hash of `salt`: deterministic, so both databases draw alike.
const uniform = (salt: string) => `(('x' || substr(md5(${salt}), 1, 8))::bit(32)::bigint::float8 / 4294967296.0)`;

export async function seedDatabase(databaseUrl: string, templates: readonly PreparedTemplate[], plan: SeedPlan, log: (line: string) => void): Promise<SeedResult> {
  // One session (the temporary tables are its own), with room for the sorts that put each table in time order.
  const sql = postgres(databaseUrl, {
    max: 1,
    onnotice: () => {},
    connection: { synchronous_commit: "off", work_mem: "256MB", maintenance_work_mem: "256MB" },
  });
  const steps: Record<string, number> = {};
  const startedAt = Date.now();
  const step = async (name: string, query: string, parameters: postgres.ParameterOrJSON<never>[] = []) => {
    const began = Date.now();
    await sql.unsafe(query, parameters);
    steps[name] = (Date.now() - began) / 1000;
    log(`seed: ${name} ${steps[name].toFixed(1)} s`);
  };
  try {
    await sql.unsafe(ID_FUNCTION);
    await step(
      "templates",
      `create temp table seed_templates as
         select (t.ordinality - 1)::int as n, t.task, t.times, t.ledger, t.key, t.events, t.artifacts, t.captured
           from rows from (jsonb_to_recordset($1::jsonb)
             as (task text, times jsonb, ledger jsonb, key jsonb, events jsonb, artifacts jsonb, captured bigint)) with ordinality t`,
      [sql.json(templates as unknown as postgres.JSONValue)],
    );
    const count = templates.length;
    const yearStart = new Date(plan.now.getTime() - YEAR_MS).toISOString();
    const stepMs = YEAR_MS / plan.tasks;
    // The plan: each task's number, tenant (0 the measured one; the others skewed towards low numbers), template
    // and creation time.
    await step(
      "plan",
      `create temp table seed_plan as
         select i,
                case when i % ${plan.measuredEvery} = 0 then 0
                     else 1 + floor(${plan.tenants - 1} * power(${uniform("i || ':tenant'")}, 2))::int end as tenant_no,
                floor(${count} * ${uniform("i || ':template'")})::int as template_no,
                '${yearStart}'::timestamptz + make_interval(secs => i * ${stepMs / 1000}) as created_at
           from generate_series(1, ${plan.tasks}) i
          where ${plan.onlyMeasured ? `i % ${plan.measuredEvery} = 0` : "true"};
       create temp table seed_tenants as
         select p.tenant_no,
                pg_temp.seed_id('ten', min(p.created_at) - interval '1 day', p.tenant_no || ':tenant') as tenant_id,
                pg_temp.seed_id('key', min(p.created_at) - interval '1 day', p.tenant_no || ':key') as api_key_id,
                min(p.created_at) - interval '1 day' as created_at,
                sum(t.captured)::bigint as spent
           from seed_plan p join seed_templates t on t.n = p.template_no
          group by p.tenant_no;
       create temp table seed_tasks as
         select p.i, p.created_at, p.template_no, s.tenant_id, s.api_key_id,
                pg_temp.seed_id('task', p.created_at, p.i || ':task') as task_id
           from seed_plan p join seed_tenants s using (tenant_no);
       analyze seed_tasks; analyze seed_templates; analyze seed_tenants`,
    );
    await step(
      "tenants, API keys and accounts",
      `insert into tenants (id, name, status, created_at)
         select tenant_id, 'seeded tenant ' || tenant_no, 'active', created_at from seed_tenants order by created_at;
       insert into api_keys (id, tenant_id, name, key_hash, display_prefix, region, status, created_at)
         select api_key_id, tenant_id, 'production', encode(sha256(convert_to('seed:' || tenant_id, 'UTF8')), 'hex'),
                'sk_${plan.region}_seed…', '${plan.region}', 'active', created_at
           from seed_tenants order by created_at;
       insert into credit_accounts (tenant_id, available, held, spent, granted, updated_at)
         select tenant_id, granted - spent, 0, spent, granted, now()
           from (select tenant_id, spent,
                        spent + case when tenant_no = 0 then ${plan.measuredExtraMicro} else ${OTHER_TENANT_EXTRA_MICRO} end as granted
                   from seed_tenants) a`,
    );
    const artifactIds = Array.from({ length: MAX_ARTIFACTS_PER_TASK }, (_, k) => k + 1);
    const replaced = (column: string) =>
      [
        [PLACEHOLDERS.task, "s.task_id"],
        [PLACEHOLDERS.tenant, "s.tenant_id"],
        [PLACEHOLDERS.idempotencyKey, "'seed-' || s.i"],
        [PLACEHOLDERS.request, "'req_' || substr(md5(s.i || ':request'), 1, 24)"],
        // An artifact's id is made only for a template that has that many (the others have no such placeholder).
        ...artifactIds.map((k) => [
          artifactPlaceholder(k),
          `case when jsonb_array_length(t.artifacts) >= ${k} then pg_temp.seed_id('art', s.created_at, s.i || ':art${k}') else '' end`,
        ]),
      ].reduce((text, [from, to]) => `replace(${text}, '${from}', ${to})`, column);
    const at = (offset: string) => `s.created_at + make_interval(secs => (${offset})::float8 / 1000)`;
    await step(
      "tasks",
      `insert into tasks
         select r.*
           from seed_tasks s join seed_templates t on t.n = s.template_no,
                lateral jsonb_populate_record(null::tasks, ${replaced("t.task")}::jsonb || jsonb_build_object(
                  'created_at', s.created_at,
                  'started_at', ${at("t.times->>'started_at'")},
                  'deadline_at', ${at("t.times->>'deadline_at'")},
                  'completed_at', ${at("t.times->>'completed_at'")},
                  'cancel_requested_at', ${at("t.times->>'cancel_requested_at'")})) r
          order by s.i`,
    );
    await step(
      "credit ledger",
      `insert into credit_ledger (tenant_id, task_id, api_key_id, kind, amount, note, created_at)
         select tenant_id, task_id, api_key_id, kind, amount, note, created_at from (
           select s.tenant_id, null::text as task_id, null::text as api_key_id, 'grant' as kind, a.granted as amount,
                  'seeded' as note, s.created_at
             from seed_tenants s join credit_accounts a using (tenant_id)
           union all
           select s.tenant_id, s.task_id, case when (l->>'by_key')::boolean then s.api_key_id end, l->>'kind',
                  (l->>'amount')::bigint, l->>'note', ${at("l->>'offset_ms'")}
             from seed_tasks s join seed_templates t on t.n = s.template_no, jsonb_array_elements(t.ledger) l
         ) entries
          order by created_at`,
    );
    await step(
      "idempotency keys",
      `insert into idempotency_keys (tenant_id, key, fingerprint, task_id, created_at, expires_at)
         select s.tenant_id, 'seed-' || s.i, t.key->>'fingerprint', s.task_id, ${at("t.key->>'offset_ms'")},
                ${at("t.key->>'offset_ms'")} + interval '24 hours'
           from seed_tasks s join seed_templates t on t.n = s.template_no
          where t.key is not null
          order by s.i`,
    );
    await step(
      "task events",
      `insert into task_events (task_id, kind, status, progress, created_at)
         select s.task_id, e->>'kind', e->>'status', e->'progress', ${at("e->>'offset_ms'")}
           from seed_tasks s join seed_templates t on t.n = s.template_no, jsonb_array_elements(t.events) with ordinality as x(e, k)
          order by ${at("e->>'offset_ms'")}, s.i, k`,
    );
    await step(
      "artifacts",
      `insert into artifacts
         select r.*
           from seed_tasks s join seed_templates t on t.n = s.template_no, jsonb_array_elements(t.artifacts) a,
                lateral jsonb_populate_record(null::artifacts, ${replaced("a->>'row'")}::jsonb
                  || jsonb_build_object('created_at', ${at("a->>'offset_ms'")})) r
          order by r.created_at, s.i`,
    );
    const [measured] = await sql<{ tenant_id: string }[]>`select tenant_id from seed_tenants where tenant_no = 0`;
    if (!measured) throw new Error("the plan has no task of the measured tenant");
    const [written] = await sql<{ n: number }[]>`select count(*)::int as n from seed_tasks`;
    // The planner's statistics and the visibility map as a database that has lived a year has them.
    for (const table of ["tenants", "api_keys", "credit_accounts", "tasks", "credit_ledger", "idempotency_keys", "task_events", "artifacts"]) {
      await step(`vacuum analyze ${table}`, `vacuum (analyze) ${table}`);
    }
    return { measuredTenantId: measured.tenant_id, tasks: written?.n ?? 0, seconds: (Date.now() - startedAt) / 1000, steps };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
