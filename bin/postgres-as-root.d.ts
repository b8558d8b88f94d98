// Types of bin/postgres-as-root.js for the TypeScript that uses it (the embedded Postgres's start).
export interface ServerUser {
  uid: number;
  gid: number;
}
export const SERVER_USER: string;
export const REACHABLE_BASE: string;
export class EmbeddedDatabaseRefused extends Error {}
export function serverUser(): ServerUser | null;
export function blockedOnTheWay(target: string, user: ServerUser): string | null;
export function serverBinaries(user: ServerUser | null): { postgres: string; initdb: string };
export function serverDataDirectory(dataDir: string, user: ServerUser | null): string;
