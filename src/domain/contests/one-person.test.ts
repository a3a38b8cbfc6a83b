import { describe, expect, it } from "vitest";
import { entryNetwork, type EntrySignals, groupEntrants } from "./one-person.ts";

let n = 0;
const entry = (userId: string, over: Partial<EntrySignals> = {}): EntrySignals => {
  n += 1;
  return {
    entryId: `e${String(n).padStart(3, "0")}`,
    userId,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, n)),
    deviceId: null,
    network: null,
    phone: null,
    ...over,
  };
};

describe("one person, one entry", () => {
  it("keeps only the network prefix, and ignores loopback and private addresses", () => {
    expect(entryNetwork("203.0.113.42")).toBe("203.0.113.0/24");
    expect(entryNetwork("2001:db8:85a3::8a2e:370:7334")).toBe("2001:db8:85a3::/48");
    expect(entryNetwork("127.0.0.1")).toBeNull();
    expect(entryNetwork("192.168.1.20")).toBeNull();
    expect(entryNetwork("unknown")).toBeNull();
  });

  it("4 accounts from one network: one group, only the first entrant's entries count", () => {
    const entries = ["a", "b", "c", "d"].map((u) => entry(u, { network: "198.51.100.0/24" }));
    const alone = entry("e", { network: "203.0.113.0/24" });
    const { groups, excludedEntryIds } = groupEntrants([...entries].reverse().concat(alone));
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ userIds: ["a", "b", "c", "d"], keptUserId: "a", signals: ["network"] });
    expect([...excludedEntryIds].sort()).toEqual(entries.slice(1).map((e) => e.entryId));
  });

  it("links accounts through any shared signal, transitively, and keeps the earliest", () => {
    const a = entry("a", { deviceId: "dev-1", network: "198.51.100.0/24" });
    const b = entry("b", { deviceId: "dev-1", network: "203.0.113.0/24" });
    const c = entry("c", { phone: "+33612345678", network: "203.0.113.0/24" });
    const d = entry("d", { phone: "+33612345678" });
    const again = entry("b", { deviceId: "dev-1" });
    const { groups, excludedEntryIds } = groupEntrants([d, again, c, b, a]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.keptUserId).toBe("a");
    expect(groups[0]!.signals).toEqual(["device", "network", "phone"]);
    expect(excludedEntryIds).toEqual(new Set([b.entryId, c.entryId, d.entryId, again.entryId]));
  });

  it("several entries of one account on one device are not a group", () => {
    const { groups, excludedEntryIds } = groupEntrants([entry("a", { deviceId: "x" }), entry("a", { deviceId: "x" })]);
    expect(groups).toEqual([]);
    expect(excludedEntryIds.size).toBe(0);
  });
});
