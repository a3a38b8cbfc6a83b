/**
 * What an erased person's address, phone or full name becomes where the text must stay (a correction's reason in the
 * append-only ledger, an audit row's details, a shop's message): the database functions fill it in at apply time
 * (src/server/db/functions/erasure.sql, ADR 0016), so the one French word lives here.
 */
export const ERASED_MARK = "[effacé]";

/** Shorter names are not searched for: they would blank common words in other people's texts. */
export const ERASED_NAME_MIN_LENGTH = 5;
