import { describe, expect, it } from "vitest";
import { drawSequence, newSeed, seedCommitment, ticketListText, verifyDraw } from "./draw.ts";

const tickets = (n: number, perParticipant = 1) =>
  Array.from({ length: n }, (_, i) => ({
    ticketId: `t-${String(i).padStart(4, "0")}`,
    participantId: `p-${Math.floor(i / perParticipant)}`,
  }));

const subtleSha256 = async (text: string) =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");

describe("the verifiable draw", () => {
  it("commits to the seed with SHA-256 of its text, as sha256sum would", async () => {
    const seed = newSeed();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(await seedCommitment(seed)).toBe(await subtleSha256(seed));
    // The SHA-256 test vector of "abc" (FIPS 180-2).
    expect(await seedCommitment("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("hashes the list sorted by ticket id, whatever order it comes in", async () => {
    const list = tickets(5);
    const shuffled = [list[3]!, list[0]!, list[4]!, list[1]!, list[2]!];
    expect(ticketListText(shuffled)).toBe(list.map((t) => `${t.ticketId} ${t.participantId}`).join("\n"));
    expect((await drawSequence(newSeed(), shuffled, 0)).listHash).toBe(await subtleSha256(ticketListText(list)));
  });

  it("follows the documented function: HMAC-SHA256(seed, listHash:counter), 4 bytes, rejection, skip repeats", async () => {
    const seed = "a".repeat(64);
    const list = tickets(7);
    const { listHash, sequence } = await drawSequence(seed, list, 3);
    // The documented steps, written out again here.
    const expected: string[] = [];
    const limit = Math.floor(2 ** 32 / 7) * 7;
    const enc = new TextEncoder();
    const key = await crypto.subtle.importKey("raw", enc.encode(seed), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    for (let counter = 0; expected.length < 3; counter++) {
      const mac = await crypto.subtle.sign("HMAC", key, enc.encode(`${listHash}:${counter}`));
      const x = new DataView(mac).getUint32(0, false);
      if (x >= limit) continue;
      const id = list[x % 7]!.ticketId;
      if (!expected.includes(id)) expected.push(id);
    }
    expect(sequence.map((t) => t.ticketId)).toEqual(expected);
  });

  it("is deterministic, draws each participant at most once, and a longer sequence extends a shorter one", async () => {
    const seed = newSeed();
    const list = tickets(40, 4); // 10 participants, 4 tickets each
    const a = await drawSequence(seed, list, 3);
    const b = await drawSequence(seed, [...list].reverse(), 3);
    expect(a).toEqual(b);
    const all = await drawSequence(seed, list);
    expect(all.sequence).toHaveLength(10);
    expect(new Set(all.sequence.map((t) => t.participantId)).size).toBe(10);
    expect(all.sequence.slice(0, 3)).toEqual(a.sequence);
    const other = await drawSequence(newSeed(), list);
    expect(other.sequence.map((t) => t.participantId)).not.toEqual(all.sequence.map((t) => t.participantId));
  });

  it("handles an empty list and fewer participants than prizes", async () => {
    expect((await drawSequence(newSeed(), [], 3)).sequence).toEqual([]);
    expect((await drawSequence(newSeed(), tickets(2), 5)).sequence).toHaveLength(2);
  });

  it("verifyDraw says when the seed or the list was changed", async () => {
    const seed = newSeed();
    const list = tickets(12);
    const commitment = await seedCommitment(seed);
    const { listHash } = await drawSequence(newSeed(), list, 0);
    const good = await verifyDraw({ seed, commitment, listHash, tickets: list, count: 2 });
    expect(good.seedMatches && good.listMatches).toBe(true);
    const badSeed = await verifyDraw({ seed: newSeed(), commitment, listHash, tickets: list });
    expect(badSeed.seedMatches).toBe(false);
    const badList = await verifyDraw({ seed, commitment, listHash, tickets: list.slice(1) });
    expect(badList.listMatches).toBe(false);
  });

  it("is fair: over many seeds each of 5 tickets comes first about equally often", async () => {
    const list = tickets(5);
    const firsts = new Map<string, number>();
    const runs = 2000;
    for (let i = 0; i < runs; i++) {
      const { sequence } = await drawSequence(`seed-${i}`, list, 1);
      const id = sequence[0]!.ticketId;
      firsts.set(id, (firsts.get(id) ?? 0) + 1);
    }
    const expected = runs / 5;
    const chi2 = [...firsts.values()].reduce((s, o) => s + (o - expected) ** 2 / expected, 0);
    expect(firsts.size).toBe(5);
    expect(chi2).toBeLessThan(18.467); // df = 4, p = 0.001
  });
});
