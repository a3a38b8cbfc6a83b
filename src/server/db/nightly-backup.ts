import { createWriteStream, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { createGzip } from "node:zlib";
import type { Deps } from "../lib/context.ts";
import { backupFileName, writeBackup } from "./backup.ts";

/**
 * The embedded database's nightly backup (docs/decisions/0039): one gzipped SQL file in DATA_DIR/backups, the
 * newest BACKUP_KEEP kept. PGlite does not fsync (README), so a copy that a restore can read is what makes the
 * embedded default fit a small shop. A PostgreSQL server is the operator's to back up (`npm run backup` from their
 * cron, or their own pg_dump): nothing is written there. Run by the job backup.nightly.
 */
export async function writeNightlyBackup(
  deps: Pick<Deps, "database" | "env" | "logger">,
  now = new Date(),
): Promise<{ file: string | null; removed: number }> {
  if (deps.database.kind !== "pglite" || deps.env.BACKUP_KEEP === 0) return { file: null, removed: 0 };
  const dir = path.join(deps.env.DATA_DIR, "backups");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, backupFileName(now, true));
  // Written beside its final name and renamed when whole: a crash never leaves a half file among the backups.
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  const gzip = createGzip();
  gzip.pipe(out);
  try {
    await writeBackup(deps.database, async (chunk) => {
      if (!gzip.write(chunk)) await once(gzip, "drain");
    });
    gzip.end();
    await once(out, "finish");
    renameSync(partial, file);
  } catch (error) {
    gzip.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
  const stale = listBackupFiles(dir).slice(deps.env.BACKUP_KEEP);
  for (const old of stale) rmSync(path.join(dir, old), { force: true });
  deps.logger.info(`backup: ${path.basename(file)} written, ${stale.length} older removed`);
  return { file: path.basename(file), removed: stale.length };
}

/** Backup files in a folder, newest first (their names sort by date). */
function listBackupFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => /^fidele-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.sql\.gz$/.test(f))
      .sort()
      .reverse();
  } catch {
    return [];
  }
}
