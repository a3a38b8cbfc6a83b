import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ERASED_MARK, ERASED_NAME_MIN_LENGTH } from "../../domain/accounts/erasure.ts";
import { LIFETIME_KINDS } from "../../domain/loyalty/ledger.ts";
import { CLAIM_CODE_LENGTH, PREPAID_CANCEL_MINUTES, PREPAID_CODE_LENGTH } from "../../domain/loyalty/prepaid.ts";
import { REDEMPTION_CODE_ALPHABET, REDEMPTION_CODE_LENGTH } from "../../domain/loyalty/rewards.ts";
import { SEARCH_FOLD_FROM, SEARCH_FOLD_TO } from "../../domain/loyalty/shop-text.ts";

/**
 * The database functions (fidele_scan, fidele_redeem, …) are source files in functions/, applied with
 * CREATE OR REPLACE after the migrations at every start (migrate.ts): a function's one home. A migration
 * never copies a body again; one that changes a function's arguments DROPs the old one (0006).
 */
const FUNCTIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "functions");

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Constants the SQL shares with src/domain, owned there: `{{NAME}}` in a file becomes its SQL literal. */
const CONSTANTS: Record<string, string> = {
  CLAIM_CODE_LENGTH: String(CLAIM_CODE_LENGTH),
  ERASED_MARK: quote(ERASED_MARK),
  ERASED_NAME_MIN_LENGTH: String(ERASED_NAME_MIN_LENGTH),
  LIFETIME_KINDS: LIFETIME_KINDS.map(quote).join(", "),
  PREPAID_CANCEL_MINUTES: String(PREPAID_CANCEL_MINUTES),
  PREPAID_CODE_LENGTH: String(PREPAID_CODE_LENGTH),
  REDEMPTION_CODE_ALPHABET: quote(REDEMPTION_CODE_ALPHABET),
  REDEMPTION_CODE_LENGTH: String(REDEMPTION_CODE_LENGTH),
  SEARCH_FOLD_FROM: quote(SEARCH_FOLD_FROM),
  SEARCH_FOLD_TO: quote(SEARCH_FOLD_TO),
};

/** Each file's SQL, constants filled in, in file-name order. */
export function functionSources(): { file: string; sql: string }[] {
  return readdirSync(FUNCTIONS_DIR)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((file) => ({
      file,
      sql: readFileSync(path.join(FUNCTIONS_DIR, file), "utf8").replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
        const value = CONSTANTS[name];
        if (value === undefined) throw new Error(`${file}: unknown constant {{${name}}}`);
        return value;
      }),
    }));
}

/** All function files as one script, in one transaction (idempotent: CREATE OR REPLACE only). */
export function functionsScript(): string {
  return ["BEGIN;", ...functionSources().map((f) => `-- ${f.file}\n${f.sql}`), "COMMIT;"].join("\n");
}
