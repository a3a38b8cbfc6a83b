import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { gunzipSync, createGzip } from "node:zlib";
import { parseEnv } from "../env.ts";
import { backupFileName, RestoreRefused, restoreBackup, tableChecksums, writeBackup } from "./backup.ts";
import { type Database, openDatabase } from "./client.ts";
import { DataDirLockedError } from "./data-dir.ts";
import { migrateDatabase, roleOf } from "./migrate.ts";

/**
 * `npm run backup [-- FILE]`, `npm run restore -- FILE`, `npm run db:move -- postgres://…` (docs/decisions/0039).
 * They work on DATABASE_URL when it is set, else on the embedded database in DATA_DIR (which must not be in use by
 * a running server: its lock says so; a running embedded server keeps its own nightly backups in DATA_DIR/backups).
 * A FILE ending in .gz is compressed; `-` is standard output.
 */
if (existsSync(".env")) process.loadEnvFile(".env");

const [command, arg] = process.argv.slice(2);

async function backupTo(database: Database, file: string) {
  const out =
    file === "-"
      ? process.stdout
      : (mkdirSync(path.dirname(path.resolve(file)), { recursive: true }), createWriteStream(file));
  const gzip = file.endsWith(".gz") ? createGzip() : null;
  if (gzip) gzip.pipe(out);
  const sink = gzip ?? out;
  const summary = await writeBackup(database, async (chunk) => {
    if (!sink.write(chunk)) await once(sink, "drain");
  });
  if (file !== "-") {
    sink.end();
    await once(out, "finish");
  }
  return summary;
}

function readBackup(file: string): string {
  const bytes = readFileSync(file);
  return (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
}

async function main() {
  const env = parseEnv();
  // With two PostgreSQL roles (ADR 0034) the owner's URL reads everything and creates the tables of a restore;
  // the server's role is then granted what it needs, as at start.
  const serverUrl = env.DATABASE_OWNER_URL ?? env.DATABASE_URL;
  const source = () => openDatabase(serverUrl ? { url: serverUrl } : { dataDir: env.DATA_DIR });
  const where = env.DATABASE_URL ? "PostgreSQL" : env.DATA_DIR;

  if (command === "backup") {
    const file = arg ?? path.join("backups", backupFileName(new Date(), false));
    const database = await source();
    try {
      // A backup reads the database as it is (its own migration level), never changes it.
      const summary = await backupTo(database, file);
      if (file !== "-")
        console.error(
          `Sauvegarde écrite / backup written: ${file} (${summary.rows} lignes / rows, ${summary.tables} tables, ` +
            `migration ${summary.migration}, ${where}).`,
        );
    } finally {
      await database.close();
    }
    return;
  }

  if (command === "restore") {
    if (!arg) throw new RestoreRefused("Usage : npm run restore -- FICHIER / usage: npm run restore -- FILE");
    const text = readBackup(arg);
    const database = await source();
    try {
      const { tables } = await restoreBackup(database, text);
      if (env.DATABASE_OWNER_URL && env.DATABASE_URL)
        await migrateDatabase(database, { appRole: roleOf(env.DATABASE_URL) });
      console.error(`Restauration terminée / restored: ${tables} tables dans / into ${where}.`);
    } finally {
      await database.close();
    }
    return;
  }

  if (command === "move") {
    // Embedded → PostgreSQL server in one step: the backup is made in memory and restored, then both sides'
    // checksums are compared table by table before saying it worked.
    if (env.DATABASE_URL)
      throw new RestoreRefused(
        "db:move part de la base embarquée : lancez-le sans DATABASE_URL. / db:move starts from the embedded database: unset DATABASE_URL.",
      );
    if (!arg || !/^postgres(ql)?:\/\//.test(arg))
      throw new RestoreRefused("Usage : npm run db:move -- postgres://utilisateur@hôte:5432/base");
    const from = await openDatabase({ dataDir: env.DATA_DIR });
    try {
      const parts: string[] = [];
      await writeBackup(from, (chunk) => void parts.push(chunk));
      const to = await openDatabase({ url: arg });
      try {
        await restoreBackup(to, parts.join(""));
        const [a, b] = [await tableChecksums(from), await tableChecksums(to)];
        const differ = Object.keys(a).filter((t) => JSON.stringify(a[t]) !== JSON.stringify(b[t]));
        if (differ.length) throw new Error(`Tables that differ after the move: ${differ.join(", ")}`);
        console.error(
          `Déplacé / moved: ${Object.keys(a).length} tables, identiques / identical. ` +
            `Démarrez maintenant avec DATABASE_URL=${arg.replace(/\/\/[^@/]*@/, "//…@")} / now start with DATABASE_URL set.`,
        );
      } finally {
        await to.close();
      }
    } finally {
      await from.close();
    }
    return;
  }

  throw new RestoreRefused("Usage : backup [FICHIER] | restore FICHIER | move postgres://…");
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof DataDirLockedError ? 3 : error instanceof RestoreRefused ? 2 : 1);
}
