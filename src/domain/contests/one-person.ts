import { networkOf } from "../place.ts";

/**
 * One person, one entry (issue 22 row 3, ADR 0033). An account is not a person: the app links accounts that share
 * what it can observe — the device id the phone keeps, the network (IPv4 /24, IPv6 /48) the entry came from, the
 * mobile number of the profile. Linked accounts form a group, presumed to be one person; the règlement says so.
 * In a draw only the group's first entrant keeps their entries; at the wheel the group has one spin per period.
 */

const GROUP_SIGNALS = ["device", "network", "phone"] as const;
type GroupSignal = (typeof GROUP_SIGNALS)[number];
export const GROUP_SIGNAL_LABELS_FR: Record<GroupSignal, string> = {
  device: "même appareil",
  network: "même réseau internet",
  phone: "même numéro de mobile",
};

/**
 * The network an entry is counted in, or null when the address tells nothing about the person: loopback and
 * private addresses are the server's own proxy or a LAN (ADR 0033: behind a proxy, TRUST_PROXY must be set).
 */
export function entryNetwork(ip: string | null | undefined): string | null {
  const network = networkOf(ip);
  return network === "local" ? null : network;
}

export type EntrySignals = {
  entryId: string;
  userId: string;
  createdAt: Date;
  deviceId: string | null;
  network: string | null;
  phone: string | null;
};

type EntrantGroup = {
  /** Accounts of the group, the first entrant first. */
  userIds: string[];
  /** The account whose entries count. */
  keptUserId: string;
  /** What links them. */
  signals: GroupSignal[];
  /** When each account first entered. */
  firstEntryAt: Record<string, Date>;
};

const before = (a: EntrySignals, b: EntrySignals) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0);

/**
 * Groups of two accounts or more (connected by any shared signal), and the entries that do not count: every
 * entry of an account that is not its group's first entrant. Deterministic: the same entries give the same
 * groups, whatever their order.
 */
export function groupEntrants(entries: EntrySignals[]): { groups: EntrantGroup[]; excludedEntryIds: Set<string> } {
  const sorted = [...entries].sort(before);
  const parent = new Map<string, string>();
  const find = (u: string): string => {
    let root = u;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(u, root);
    return root;
  };
  const first = new Map<string, EntrySignals>();
  for (const e of sorted) {
    if (!first.has(e.userId)) first.set(e.userId, e);
    if (!parent.has(e.userId)) parent.set(e.userId, e.userId);
  }
  // Union by first entry: the root of a set is always its earliest entrant.
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return;
    if (before(first.get(ra)!, first.get(rb)!) <= 0) parent.set(rb, ra);
    else parent.set(ra, rb);
  };
  const owners = new Map<string, string>();
  const linkedBy = new Map<string, Set<GroupSignal>>();
  const signalsOf = (e: EntrySignals): [GroupSignal, string | null][] => [
    ["device", e.deviceId],
    ["network", e.network],
    ["phone", e.phone],
  ];
  for (const e of sorted) {
    for (const [signal, value] of signalsOf(e)) {
      if (!value) continue;
      const key = `${signal}:${value}`;
      const owner = owners.get(key);
      if (owner === undefined) owners.set(key, e.userId);
      else if (owner !== e.userId) {
        union(owner, e.userId);
        const seen = linkedBy.get(e.userId) ?? new Set();
        seen.add(signal);
        linkedBy.set(e.userId, seen);
      }
    }
  }
  const members = new Map<string, string[]>();
  for (const userId of first.keys()) {
    const root = find(userId);
    members.set(root, [...(members.get(root) ?? []), userId]);
  }
  const groups: EntrantGroup[] = [];
  const excludedUsers = new Set<string>();
  for (const [root, userIds] of members) {
    if (userIds.length < 2) continue;
    const signals = new Set<GroupSignal>();
    for (const u of userIds) for (const s of linkedBy.get(u) ?? []) signals.add(s);
    for (const u of userIds) if (u !== root) excludedUsers.add(u);
    groups.push({
      userIds,
      keptUserId: root,
      signals: GROUP_SIGNALS.filter((s) => signals.has(s)),
      firstEntryAt: Object.fromEntries(userIds.map((u) => [u, first.get(u)!.createdAt])),
    });
  }
  const excludedEntryIds = new Set(entries.filter((e) => excludedUsers.has(e.userId)).map((e) => e.entryId));
  return { groups, excludedEntryIds };
}
