#!/usr/bin/env node
/**
 * Checks a Fidèle draw from what its public page publishes, without trusting the server:
 *
 *   curl -s https://…/api/contests/<id>/draw > draw.json
 *   node scripts/verify-draw.mjs draw.json
 *
 * draw.json: { "commitment", "seed", "entrantsHash", "entrants": [{ "ticketId", "participantId" }], "winnersCount" }
 * Prints whether the seed matches its commitment and the list its hash, then the participants in the order they
 * were drawn (the first `winnersCount` win; those after them replace unclaimed prizes, in order).
 * The function is documented in src/domain/contests/draw.ts, which this script runs as is (Node ≥ 22.6).
 */
import { readFile } from "node:fs/promises";
import { verifyDraw } from "../src/domain/contests/draw.ts";

const file = process.argv[2];
if (!file) {
  console.error("usage: node scripts/verify-draw.mjs draw.json");
  process.exit(2);
}
const published = JSON.parse(await readFile(file, "utf8"));
const result = await verifyDraw({
  seed: published.seed,
  commitment: published.commitment,
  listHash: published.entrantsHash,
  tickets: published.entrants,
});
console.log(`graine conforme à l'empreinte publiée : ${result.seedMatches ? "oui" : "NON"}`);
console.log(`liste conforme à son empreinte : ${result.listMatches ? "oui" : "NON"}`);
result.sequence.forEach((t, i) => {
  const role = i < (published.winnersCount ?? 0) ? "gagnant" : "suppléant";
  console.log(`${i + 1}. ${t.participantId} (ticket ${t.ticketId}) — ${role}`);
});
process.exit(result.seedMatches && result.listMatches ? 0 : 1);
