/*
 * How Fidèle opens PGlite, in the worker thread (pglite-worker.ts) and on the main thread alike. Packages and
 * node: modules only, erasable TypeScript: the worker loads it with Node's own type stripping.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";

/**
 * PGlite's own start parameters, plus `wal_init_zero=off`: PostgreSQL writes 16 MB of zeros into each new WAL
 * segment, which on PGlite's file system stalls every query for 30–75 ms once per ~2,500 scans (issue 11: a scan's
 * p99 at 16 clients). Off only skips filling the file ahead of use (PostgreSQL documents it for copy-on-write file
 * systems); what is written and when it is flushed do not change.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "wal_init_zero=off"];

/**
 * A new data directory starts from a committed copy of an empty, migrated one (scripts/make-db-template.ts) rather
 * than from PostgreSQL's initdb: initdb alone is ~3.8 s of CPU, most of a first start (ADR 0037). The copy is used
 * only by the PGlite version that made it (the data directory's format is that version's); the migrations made after
 * it are applied on top as on any older database.
 */
export const TEMPLATE_DIR = path.join(import.meta.dirname, "template");
/** A tar of the data directory, brotli-compressed (1.7 MB against gzip's 5.1 MB; ~0.3 s to decompress). */
export const TEMPLATE_FILE = path.join(TEMPLATE_DIR, "pglite.tar.br");
export const TEMPLATE_META = path.join(TEMPLATE_DIR, "pglite.json");

export type TemplateMeta = { pglite: string; lastMigration: string };

/** The installed PGlite's version (its package.json is not in its exports: found beside its entry). */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
}

/** The template's bytes when `dataDir` is new (no PG_VERSION yet) and the template is this PGlite's; else undefined. */
export function templateFor(dataDir: string): Blob | undefined {
  if (existsSync(path.join(dataDir, "PG_VERSION")) || !existsSync(TEMPLATE_META)) return undefined;
  const meta = JSON.parse(readFileSync(TEMPLATE_META, "utf8")) as TemplateMeta;
  if (meta.pglite !== pgliteVersion() || !existsSync(TEMPLATE_FILE)) return undefined;
  return new Blob([brotliDecompressSync(readFileSync(TEMPLATE_FILE))]);
}

/**
 * `withTemplate`: a new `dataDir` starts from the template (the server's own database; a backup or a restore opens
 * a directory as it is, so an empty one stays empty).
 */
export function pgliteOptions(extra: PGliteOptions = {}, withTemplate = false): PGliteOptions {
  const template = withTemplate && extra.dataDir && !extra.loadDataDir ? templateFor(extra.dataDir) : undefined;
  return { ...extra, ...(template ? { loadDataDir: template } : {}), startParams: PGLITE_START_PARAMS };
}
