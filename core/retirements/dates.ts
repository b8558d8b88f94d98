import { z } from "zod";

// A retirement date as the operator writes it: a day (`2026-12-15`, its 00:00 UTC) or an ISO 8601 date-time with
// its offset (`2026-12-15T09:00:00Z`).
export const retirementDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })]).transform((text) => new Date(/T/.test(text) ? text : `${text}T00:00:00Z`));

export const RETIREMENT_DATE_HELP = "a day (2026-12-15, at 00:00 UTC) or an ISO 8601 date-time with offset (2026-12-15T09:00:00Z)";
