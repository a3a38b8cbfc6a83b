import { useQuery } from "@tanstack/react-query";
import { formatMoment, plural } from "../../../../domain/format.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { adminKeys } from "../api/keys.ts";

type Person = {
  userId: string;
  name: string | null;
  email: string;
  lastSeenAt: string;
  shop: { id: string; name: string | null } | null;
  relation: "team" | "customer" | null;
};

/** People grouped by shop, in the order the API gives (by shop name). */
function byShop(people: Person[]) {
  const groups = new Map<string, { title: string; people: Person[] }>();
  for (const p of people) {
    const key = p.shop?.id ?? "";
    const group = groups.get(key) ?? { title: p.shop?.name ?? "Sans boutique", people: [] };
    group.people.push(p);
    groups.set(key, group);
  }
  return [...groups.entries()];
}

/** /admin/connected: who is using the app now (a request in the last 2 minutes). */
export default function ConnectedPage() {
  const connected = useQuery({
    queryKey: adminKeys.connected(),
    queryFn: () => unwrap(api.admin.connected.$get()),
    refetchInterval: 30_000,
  });
  return (
    <BackOfficeFrame
      scope="platform"
      title="Connectés"
      lead="Les personnes actives ces deux dernières minutes, boutique par boutique."
    >
      <QueryState query={connected}>
        {(data) =>
          data.people.length === 0 ? (
            <p className="text-stone-700 dark:text-stone-300">Aucun compte connecté en ce moment.</p>
          ) : (
            byShop(data.people).map(([key, group]) => (
              <section key={key || "none"} aria-labelledby={`shop-${key || "none"}`} className="flex flex-col gap-2">
                <h2 id={`shop-${key || "none"}`} className="text-lg font-semibold">
                  {group.title}{" "}
                  <span className="text-base font-normal">
                    ({plural(group.people.length, "personne", "personnes")})
                  </span>
                </h2>
                <ul className="flex flex-col gap-2">
                  {group.people.map((p) => (
                    <li
                      key={`${key}-${p.userId}`}
                      className="flex items-center justify-between gap-3 rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900"
                    >
                      <div className="min-w-0">
                        <p className="truncate font-semibold">{p.name || p.email}</p>
                        <p className="truncate text-sm text-stone-600 dark:text-stone-400">
                          {p.relation === "team" ? "Équipe" : p.relation === "customer" ? "Client" : "Utilisateur"} · vu{" "}
                          {formatMoment(p.lastSeenAt)}
                        </p>
                      </div>
                      <span className="size-3 shrink-0 rounded-full bg-emerald-600" aria-hidden="true" />
                    </li>
                  ))}
                </ul>
              </section>
            ))
          )
        }
      </QueryState>
    </BackOfficeFrame>
  );
}
