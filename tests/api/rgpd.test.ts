import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPhone } from "../../src/domain/messages/phone.ts";
import { createReward } from "../../src/server/db/factories.ts";
import { consents, profiles, shopReviews } from "../../src/server/db/schema/index.ts";
import { ARCHIVE_FILES, JSON_ONLY } from "../../src/server/modules/accounts/rgpd-files.ts";
import { EXPORT_SOURCES } from "../../src/server/modules/accounts/rgpd-sources.ts";
import { findLedgerMismatches } from "../setup/ledger.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 16, item 9: RGPD by itself — the archive of everything about me, and erasing my account. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** From the catalogue: every (table, column) of the public schema that points at a user — FKs to "user"(id), and user_id. */
async function userReferences(): Promise<{ table: string; column: string }[]> {
  const result = await t.deps.db.execute<{ table: string; column: string }>(sql`
    select cl.relname as "table", a.attname as "column"
    from pg_constraint con
    join pg_class cl on cl.oid = con.conrelid
    join pg_namespace n on n.oid = cl.relnamespace
    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = any (con.conkey)
    where con.contype = 'f' and con.confrelid = '"user"'::regclass and n.nspname = 'public'
    union
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' and column_name = 'user_id'
    order by 1, 2`);
  return result.rows;
}

/** A shopper with a password, a profile, a card, a scan, a pending redemption, a review and consents. */
async function busyShopper() {
  const { shop, owner } = await shopWithOwner(t, {
    rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
  });
  const firstName = `Zoé${randomUUID().slice(0, 6)}`;
  const lastName = `Quenneville${randomUUID().slice(0, 6)}`;
  const password = "un-mot-de-passe-solide";
  const birthday = `19${10 + Math.floor(Math.random() * 89)}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 10)}`;
  const user = await t.createUser({ firstName, lastName, password });
  const phone = `+3361${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  await t.deps.db.update(profiles).set({ birthday, postalCode: "75011", phone }).where(eq(profiles.id, user.id));
  // What the sending kept about them: an SMS to their number, their unsubscribe from a newsletter.
  await t.deps.db.execute(sql`
    insert into sms_outbox ("to", text, kind, provider, status, segments)
    values (${phone}, 'Double points ce samedi !', 'campaign', 'outbox', 'kept', 1)`);
  await t.deps.db.execute(
    sql`insert into email_events (email, kind) values (${user.email.toLowerCase()}, 'unsubscribe')`,
  );
  const client = t.client();
  await client.signIn(user.email, password);
  await t.deps.db.insert(consents).values([
    { userId: user.id, channel: "email", granted: true, wording: "J'accepte les e-mails de mes boutiques." },
    { userId: user.id, channel: "email", granted: false, wording: "Je refuse les e-mails de mes boutiques." },
  ]);
  for (let i = 0; i < 2; i++) expect((await scan(client, t.deps.db, shop.id)).body.accepted).toBe(true);
  expect((await client.request("/api/cards/personal-code")).status).toBe(200);
  await t.deps.db.insert(shopReviews).values({ shopId: shop.id, userId: user.id, rating: 5 } as never);
  const reward = await createReward(t.deps, { shopId: shop.id, title: "Croissant offert", cost: 5 });
  const redeemed = await client.request(`/api/rewards/${reward.slug}/redeem`, { json: { idempotencyKey: newKey() } });
  expect(redeemed.status).toBe(201);
  return { shop, owner, user, client, password, firstName, lastName, birthday, phone };
}

async function shopBalances(shopId: string) {
  const result = await t.deps.db.execute<{ total: number; ledger: number }>(sql`
    select coalesce((select sum(balance) from cards where shop_id = ${shopId}), 0)::int as total,
           coalesce((select sum(delta) from ledger_entries where shop_id = ${shopId}), 0)::int as ledger`);
  return result.rows[0] as { total: number; ledger: number };
}

/**
 * Every text column of every table (text, varchar, JSON, dates, arrays), scanned for each needle: "table.column ∋ needle".
 * The append-only ledger, the scan log and the audit log keep who acted, and on whom, as a bare id that nothing
 * resolves any more: those id columns are the only ones skipped for the id.
 */
async function textsNaming(userId: string, needles: string[]) {
  const columns = await t.deps.db.execute<{ table: string; column: string }>(sql`
    select table_name as "table", column_name as "column" from information_schema.columns
    where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'date', 'ARRAY')`);
  const found: string[] = [];
  for (const { table, column } of columns.rows) {
    for (const needle of [...needles, userId]) {
      if (needle === userId && (column === "actor_id" || column === "decided_by")) continue;
      if (needle === userId && table === "audit_log" && column === "target") continue;
      const hit = await t.deps.db.execute(
        sql`select 1 from ${sql.identifier(table)} where ${sql.identifier(column)}::text ilike ${`%${needle}%`} limit 1`,
      );
      if (hit.rows.length > 0) found.push(`${table}.${column} ∋ ${needle === userId ? "id" : needle}`);
    }
  }
  return found;
}

/** The cells of a CSV written by src/domain/loyalty/csv.ts (`;`, CRLF, quotes doubled), header first. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ";") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && body[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  return rows;
}

describe("« Mes données »: everything about me in one archive", () => {
  it("the zip holds JSON and one CSV per table, covering every table that references a user", async () => {
    const { user, client, birthday, phone } = await busyShopper();
    const res = await client.request("/api/accounts/me/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="fidele-mes-donnees-.*\.zip"/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(strFromU8(files["donnees.json"] as Uint8Array)) as {
      tables: Record<string, Record<string, unknown>[]>;
    };

    // The catalogue decides what "about me" means: each table pointing at a user is in the archive, with every row.
    const references = await userReferences();
    expect(references.length).toBeGreaterThan(10);
    for (const { table, column } of references) {
      expect(data.tables, `table ${table} is missing from the export`).toHaveProperty(table);
      const count = await t.deps.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${user.id}`,
      );
      const exported = (data.tables[table] ?? []).filter((row) => row[column] === user.id).length;
      expect(exported, `${table}.${column}`).toBe(count.rows[0]?.n);
    }
    // Rows without a user column but about me: the ledger of my cards.
    expect(data.tables.ledger_entries?.length).toBeGreaterThanOrEqual(3);
    expect(data.tables.user?.[0]?.email).toBe(user.email);
    expect(data.tables.profiles?.[0]?.birthday).toBe(birthday);
    expect(data.tables.consents).toHaveLength(2);
    expect(data.tables.redemptions?.[0]?.status).toBe("pending");
    // Sent to me, found by my number and my address.
    expect(data.tables.sms_outbox?.map((r) => r.to)).toEqual([phone]);
    expect(data.tables.email_events?.map((r) => r.kind)).toEqual(["unsubscribe"]);
    // Secrets are not personal data to hand out.
    expect(JSON.stringify(data)).not.toMatch(/"password"|"token"|"secret"|"backup_codes"/);
    expect(Object.keys(data.tables).sort()).toEqual(Object.keys(EXPORT_SOURCES).sort());
  });

  it("issue 25 row 9: French files a person reads — a LISEZ-MOI, nothing empty, no internal name or id — and the JSON keeps every table", async () => {
    const { shop, owner, user, client, phone } = await busyShopper();
    // More of a life: a spin of the shop's wheel (won), a correction by the shop, a message received, a note the shop
    // keeps, an invitation to its team, a device for notifications, where a session was opened.
    const lot = await owner.client.request(`/api/backoffice/shops/${shop.id}/prize-lots`, {
      json: { name: "Tarte offerte", valueCents: 1800, quantity: 5, handover: "counter", claimDays: 15 },
    });
    expect(lot.status).toBe(201);
    const lotId = ((await lot.json()) as { lot: { id: string } }).lot.id;
    const created = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests`, {
      json: {
        kind: "wheel",
        title: "Roue de printemps",
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
        prizes: [{ lotId, oddsBp: 10_000 }],
      },
    });
    expect(created.status).toBe(201);
    const wheelId = ((await created.json()) as { contest: { id: string } }).contest.id;
    const scheduled = await owner.client.request(`/api/backoffice/shops/${shop.id}/contests/${wheelId}/schedule`, {
      method: "POST",
    });
    expect(scheduled.status).toBe(200);
    const spin = await client.request(`/api/contests/${wheelId}/spin`, { json: {} });
    expect(spin.status).toBe(201);
    const [card] = (await t.deps.db.execute<{ id: string }>(sql`select id from cards where user_id = ${user.id}`)).rows;
    const adjusted = await owner.client.request(`/api/backoffice/shops/${shop.id}/adjust`, {
      json: { cardId: card?.id, delta: 3, reason: "Oubli au comptoir", idempotencyKey: newKey() },
    });
    expect(adjusted.status).toBe(201);
    const [message] = (
      await t.deps.db.execute<{ id: string }>(sql`
        insert into messages (shop_id, audience, title, body, status)
        values (${shop.id}, 'customers', 'Nouveautés', 'La tarte du mois est arrivée.', 'sent') returning id`)
    ).rows;
    await t.deps.db.execute(sql`
      insert into message_deliveries (message_id, user_id, channel, status)
      values (${message?.id}, ${user.id}, 'inapp', 'delivered')`);
    await t.deps.db.execute(
      sql`insert into customer_notes (shop_id, user_id, note) values (${shop.id}, ${user.id}, 'Préfère le pain bien cuit')`,
    );
    await t.deps.db.execute(sql`
      insert into invitation (id, organization_id, email, role, status, expires_at, inviter_id)
      values (${randomUUID()}, ${shop.id}, ${user.email}, 'member', 'pending', now() + interval '7 days', ${owner.user.id})`);
    await t.deps.db.execute(sql`
      insert into push_subscriptions (user_id, device_id, endpoint, p256dh, auth, user_agent)
      values (${user.id}, ${randomUUID()}, ${`https://push.example/${randomUUID()}`}, 'cle', 'secret', 'Firefox Android')`);
    await t.deps.db.execute(sql`
      insert into session_places (session_id, time_zone, network)
      select id, 'Europe/Paris', '198.51.100.0/24' from session where user_id = ${user.id}`);

    const res = await client.request("/api/accounts/me/export");
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files);
    const csvNames = names.filter((n) => n.endsWith(".csv"));

    // French file names, none a table's, and the LISEZ-MOI first.
    expect(names[0]).toBe("LISEZ-MOI.txt");
    expect(names).toContain("donnees.json");
    expect(csvNames).toEqual(
      expect.arrayContaining([
        "mon-compte.csv",
        "cartes.csv",
        "historique-des-points.csv",
        "passages.csv",
        "recompenses.csv",
        "jeux-participations.csv",
        "lots-gagnes.csv",
        "messages-recus.csv",
        "consentements.csv",
        "avis.csv",
        "notes-des-boutiques.csv",
        "connexions.csv",
        "appareils.csv",
        "invitations.csv",
        "journal.csv",
        "sms.csv",
        "newsletters-desinscriptions.csv",
      ]),
    );
    for (const name of csvNames) {
      expect(name).toMatch(/^[a-z-]+\.csv$/);
      expect(Object.keys(EXPORT_SOURCES)).not.toContain(name.replace(/\.csv$/, ""));
    }

    // The LISEZ-MOI: when, what each file holds, what has no file, how to correct, ask or erase.
    const readme = strFromU8(files["LISEZ-MOI.txt"] as Uint8Array);
    expect(readme).toMatch(/Archive faite le \d{1,2} \S+ \d{4} à \d{2}:\d{2} \(heure de Paris\) pour /);
    expect(readme).toContain(user.email);
    for (const name of csvNames) expect(readme).toContain(`- ${name} : `);
    expect(names).not.toContain("equipes.csv");
    expect(readme).toMatch(/Rien à vous montrer pour : [^\n]*les boutiques dont vous faites partie de l'équipe/);
    expect(readme).toContain("donnees.json");
    expect(readme).toContain("/profil, « Supprimer mon compte »");
    expect(readme).toContain(t.deps.env.LEGAL_CONTACT);

    // Every table is read by a file or said to be in the JSON only.
    const covered = new Set<string>([...ARCHIVE_FILES.flatMap((f) => f.from), ...Object.keys(JSON_ONLY)]);
    expect(Object.keys(EXPORT_SOURCES).filter((table) => !covered.has(table))).toEqual([]);

    // Nothing empty, no snake_case header, no id, no true/false, no ISO date, no secret. (A link in a message they
    // received stays as it was sent, id and all: it is what they read.)
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const read: Record<string, Record<string, string>[]> = {};
    for (const name of csvNames) {
      const text = strFromU8(files[name] as Uint8Array);
      const [header = [], ...rows] = parseCsv(text);
      expect(rows.length, `${name} has rows`).toBeGreaterThan(0);
      for (const h of header) expect(h, `${name}: header « ${h} »`).toMatch(/^[A-ZÀ-Ý][^_]*$/);
      for (const cell of rows.flat()) {
        expect(cell, name).not.toMatch(uuid);
        expect(cell, name).not.toMatch(/^(true|false|null)$/);
        expect(cell, name).not.toMatch(/^\d{4}-\d{2}-\d{2}/);
      }
      expect(text, name).not.toMatch(/secret|p256dh|push\.example/);
      for (const id of [user.id, shop.id, card?.id ?? "", owner.user.id]) expect(text, name).not.toContain(id);
      read[name] = rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
    }

    // What a person reads: names, French dates, statuses in words, « oui » and « non », the card's own unit.
    const dateTime = /^\d{1,2} \S+ \d{4} à \d{2}:\d{2}$/;
    const [account] = read["mon-compte.csv"] ?? [];
    expect(account).toMatchObject({
      "Adresse e-mail": user.email,
      "Téléphone mobile": formatPhone(phone),
      "Connexion par mot de passe": "oui",
      "Double authentification": "non",
    });
    expect(account?.["Date de naissance"]).toMatch(/^\d{1,2} \S+ \d{4}$/);
    expect(account?.["Compte créé le"]).toMatch(dateTime);
    const [cardRow] = read["cartes.csv"] ?? [];
    expect(cardRow).toMatchObject({ Boutique: shop.name, Solde: "18 points", Passages: "2" });
    expect(cardRow?.["Carte ouverte le"]).toMatch(dateTime);
    expect(read["recompenses.csv"]?.[0]).toMatchObject({
      Récompense: "Croissant offert",
      Coût: "5 points",
      Statut: "En attente de validation",
    });
    expect(read["historique-des-points.csv"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Opération: "Passage en boutique", Mouvement: "10 points en plus", Par: "Vous" }),
        expect.objectContaining({
          Motif: "Oubli au comptoir",
          Mouvement: "3 points en plus",
          Par: "L'équipe de la boutique",
        }),
      ]),
    );
    expect(read["passages.csv"]?.[0]).toMatchObject({ Boutique: shop.name, Résultat: "Crédité" });
    expect(read["jeux-participations.csv"]?.[0]).toMatchObject({
      Jeu: "Roue de printemps",
      Boutique: shop.name,
      "Type de jeu": "Roue de la chance",
      Résultat: "Gagné : Tarte offerte",
    });
    expect(read["lots-gagnes.csv"]?.[0]).toMatchObject({ Lot: "Tarte offerte", Statut: "À remettre" });
    expect(read["messages-recus.csv"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          De: shop.name,
          Type: "Message d'une boutique",
          Canal: "Dans l'application",
          Statut: "Remis",
          Texte: "La tarte du mois est arrivée.",
        }),
        expect.objectContaining({ Type: "Message personnel", Titre: expect.stringMatching(/gagné/) }),
      ]),
    );
    expect(read["notes-des-boutiques.csv"]?.[0]).toMatchObject({
      Boutique: shop.name,
      Note: "Préfère le pain bien cuit",
    });
    expect(read["invitations.csv"]?.[0]).toMatchObject({
      Boutique: shop.name,
      Rôle: "Membre de l'équipe",
      Statut: "En attente",
    });
    expect(read["connexions.csv"]?.[0]).toMatchObject({ "Fuseau horaire": "Europe/Paris" });
    expect(read["journal.csv"]?.map((r) => r.Action)).toContain("Correction de solde");
    // Both consents have the same instant (one insert): their order between them is not the point.
    expect(read["consentements.csv"]?.map((r) => r.Choix).sort()).toEqual(["Accepté", "Refusé"]);

    // The JSON keeps every table, each column as stored (RGPD art. 20).
    const data = JSON.parse(strFromU8(files["donnees.json"] as Uint8Array)) as {
      tables: Record<string, Record<string, unknown>[]>;
    };
    expect(Object.keys(data.tables).sort()).toEqual(Object.keys(EXPORT_SOURCES).sort());
    expect(data.tables.cards?.[0]).toMatchObject({ shop_id: shop.id, balance: 18 });
    expect(data.tables.push_subscriptions?.[0]).not.toHaveProperty("p256dh");
  });

  it("issue 22 row 14: nothing about anyone else (other people's IPs), and the messages they received in full", async () => {
    const { shop, owner, user, client } = await busyShopper();
    // The owner corrects their balance (a row about them, acted from the owner's address); an admin acts on them.
    const [card] = (await t.deps.db.execute<{ id: string }>(sql`select id from cards where user_id = ${user.id}`)).rows;
    const adjusted = await owner.client.request(`/api/backoffice/shops/${shop.id}/adjust`, {
      json: { cardId: card?.id, delta: 3, reason: "Oubli au comptoir", idempotencyKey: newKey() },
      ip: "198.51.100.77",
    });
    expect(adjusted.status).toBe(201);
    await t.deps.db.execute(sql`
      insert into audit_log (actor_id, action, target, ip) values (${owner.user.id}, 'user.signout', ${user.id}, '198.51.100.78')`);
    // They invited someone: that person's address is not theirs to take away.
    await t.deps.db.execute(sql`
      insert into audit_log (actor_id, action, target, ip) values (${user.id}, 'member.invite', 'quelqu.un@exemple.fr', '198.51.100.79')`);
    // An in-app message from the shop reached them.
    const [message] = (
      await t.deps.db.execute<{ id: string }>(sql`
        insert into messages (shop_id, audience, title, body, status)
        values (${shop.id}, 'all', 'Double points samedi', 'Venez nombreux, tout le week-end !', 'sent') returning id`)
    ).rows;
    await t.deps.db.execute(
      sql`insert into message_deliveries (message_id, user_id, channel, status) values (${message?.id}, ${user.id}, 'inapp', 'delivered')`,
    );

    const res = await client.request("/api/accounts/me/export", { ip: "198.51.100.99" });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(strFromU8(files["donnees.json"] as Uint8Array)) as {
      tables: Record<string, Record<string, unknown>[]>;
    };
    const log = data.tables.audit_log ?? [];
    expect(log.map((r) => r.action)).toEqual(expect.arrayContaining(["points.adjust", "user.signout"]));
    for (const row of log) if (row.actor_id !== user.id) expect(row.ip, String(row.action)).toBeNull();
    expect(JSON.stringify(data)).not.toMatch(/198\.51\.100\.7[78]|quelqu\.un@exemple\.fr/);
    expect(log.find((r) => r.action === "member.invite")).toMatchObject({ ip: "198.51.100.79", target: null });
    expect(data.tables.messages_received).toEqual([
      expect.objectContaining({
        channel: "inapp",
        title: "Double points samedi",
        body: "Venez nombreux, tout le week-end !",
      }),
    ]);
    expect(strFromU8(files["messages-recus.csv"] as Uint8Array)).toContain("Double points samedi");
  });

  it("is for the signed-in person only", async () => {
    const res = await t.client().request("/api/accounts/me/export");
    expect(res.status).toBe(401);
  });

  it("shows the consent history, newest first", async () => {
    const { client } = await busyShopper();
    const res = await client.request("/api/accounts/me/consents");
    expect(res.status).toBe(200);
    const { consents: rows } = (await res.json()) as { consents: { granted: boolean; wording: string }[] };
    expect(rows).toHaveLength(2);
  });
});

describe("« Supprimer mon compte »", () => {
  it("a wrong password erases nothing, in French", async () => {
    const { user, client } = await busyShopper();
    const res = await client.request("/api/accounts/me", { method: "DELETE", json: { password: "pas-le-bon" } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/Mot de passe incorrect/);
    const still = await t.deps.db.execute(sql`select 1 from "user" where id = ${user.id}`);
    expect(still.rows).toHaveLength(1);
  });

  it("erases every personal field at once, refunds pending redemptions, keeps the shop's totals true", async () => {
    const { shop, user, client, password, firstName, lastName, birthday, phone } = await busyShopper();
    const before = await shopBalances(shop.id);
    const [pending] = (
      await t.deps.db.execute<{ cost: number }>(
        sql`select coalesce(sum(cost), 0)::int as cost from redemptions where user_id = ${user.id} and status = 'pending'`,
      )
    ).rows;
    expect(pending?.cost).toBe(5);
    const ledgerRowsBefore = (
      await t.deps.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ledger_entries where shop_id = ${shop.id}`,
      )
    ).rows[0]?.n as number;

    const res = await client.request("/api/accounts/me", { method: "DELETE", json: { password } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, cancelledRedemptions: 1 });

    // The session is gone with the account.
    expect((await client.request("/api/accounts/me").then((r) => r.json())) as unknown).toEqual({ me: null });

    // No personal field remains, in any column of any table.
    const found = await textsNaming(user.id, [user.email, firstName, lastName, birthday, phone]);
    expect(found).toEqual([]);

    // Points: the pending redemption came back (a refund row), nothing else moved; cards and ledger agree.
    const after = await shopBalances(shop.id);
    expect(after.total).toBe(before.total + (pending?.cost ?? 0));
    expect(after.total).toBe(after.ledger);
    const ledgerRowsAfter = (
      await t.deps.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ledger_entries where shop_id = ${shop.id}`,
      )
    ).rows[0]?.n as number;
    expect(ledgerRowsAfter).toBe(ledgerRowsBefore + 1);
    expect(await findLedgerMismatches(t.deps.db)).toEqual([]);

    // The deletion is logged; the person's rows of the log lost their address.
    const log = await t.deps.db.execute<{ action: string; ip: string | null }>(
      sql`select action, ip from audit_log where actor_id = ${user.id} or target = ${user.id} order by created_at`,
    );
    expect(log.rows.at(-1)).toEqual({ action: "account.delete", ip: null });
    expect(log.rows.every((r) => r.ip === null)).toBe(true);
  });

  it("issue 22 row 8: no text in any table names them after — an unused sign-in code, a correction reason, a message", async () => {
    const { shop, owner, user, client, password, firstName, lastName, birthday, phone } = await busyShopper();
    // A sign-in code asked and never used: better-auth keeps `sign-in-otp-<address>` with the code.
    const asked = await t.client().request("/api/auth/email-otp/send-verification-otp", {
      json: { email: user.email, type: "sign-in" },
    });
    expect(asked.status).toBe(200);
    const otp = await t.deps.db.execute(sql`select 1 from verification where identifier ilike ${`%${user.email}%`}`);
    expect(otp.rows.length).toBeGreaterThan(0);
    // The owner types their address, name and number in a correction's reason (ledger and audit log), and in a message.
    const [card] = (await t.deps.db.execute<{ id: string }>(sql`select id from cards where user_id = ${user.id}`)).rows;
    const reason = `${firstName} ${lastName} ${user.email} ${phone} — vu ${owner.user.email}`;
    const adjusted = await owner.client.request(`/api/backoffice/shops/${shop.id}/adjust`, {
      json: { cardId: card?.id, delta: 2, reason: reason.slice(0, 200), idempotencyKey: newKey() },
    });
    expect(adjusted.status).toBe(201);
    await t.deps.db.execute(sql`
      insert into messages (shop_id, audience, title, body, status)
      values (${shop.id}, 'all', 'Merci !', ${`Bravo à ${firstName} ${lastName} pour sa 100e visite`}, 'sent')`);

    const res = await client.request("/api/accounts/me", { method: "DELETE", json: { password } });
    expect(res.status).toBe(200);

    expect(await textsNaming(user.id, [user.email, firstName, lastName, birthday, phone])).toEqual([]);
    // What names someone else stays: the owner's address in the same reason, the rest of the message.
    const kept = await t.deps.db.execute<{ reason: string }>(
      sql`select reason from ledger_entries where card_id = ${card?.id} and kind = 'adjustment'`,
    );
    expect(kept.rows.map((r) => r.reason)).toEqual([`[effacé] [effacé] [effacé] — vu ${owner.user.email}`]);
    const message = await t.deps.db.execute<{ body: string }>(
      sql`select body from messages where shop_id = ${shop.id} and title = 'Merci !'`,
    );
    expect(message.rows.map((r) => r.body)).toEqual(["Bravo à [effacé] pour sa 100e visite"]);
  });

  it("without a password: a code sent by e-mail (to the outbox) confirms it, once, and a wrong one erases nothing", async () => {
    const { user, client } = await signedIn(t);
    const wrongFirst = await client.request("/api/accounts/me", { method: "DELETE", json: { code: "000000" } });
    expect(wrongFirst.status).toBe(400);
    expect((await wrongFirst.json()).message).toMatch(/Code incorrect ou expiré/);

    const sent = await client.request("/api/accounts/me/erase-code", { method: "POST" });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ ok: true, sentTo: user.email, minutes: 15 });
    // One a minute at most.
    expect((await client.request("/api/accounts/me/erase-code", { method: "POST" })).status).toBe(429);
    const [mail] = (
      await t.deps.db.execute<{ text: string; kind: string }>(
        sql`select text, kind from mail_outbox where "to" = ${user.email} order by created_at desc limit 1`,
      )
    ).rows;
    expect(mail?.kind).toBe("erase-code");
    const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
    expect(code).toMatch(/^\d{6}$/);
    // The code is stored hashed, never as sent.
    const stored = await t.deps.db.execute(sql`select 1 from verification where value = ${code}`);
    expect(stored.rows).toHaveLength(0);

    const wrong = await client.request("/api/accounts/me", {
      method: "DELETE",
      json: { code: code === "123456" ? "654321" : "123456" },
    });
    expect(wrong.status).toBe(400);
    expect((await t.deps.db.execute(sql`select 1 from "user" where id = ${user.id}`)).rows).toHaveLength(1);

    const ok = await client.request("/api/accounts/me", { method: "DELETE", json: { code } });
    expect(ok.status).toBe(200);
    expect((await t.deps.db.execute(sql`select 1 from "user" where id = ${user.id}`)).rows).toHaveLength(0);
    expect(
      (await t.deps.db.execute(sql`select 1 from verification where identifier = ${`erase:${user.id}`}`)).rows,
    ).toHaveLength(0);
  });

  it("an expired code is refused", async () => {
    const { user, client } = await signedIn(t);
    expect((await client.request("/api/accounts/me/erase-code", { method: "POST" })).status).toBe(200);
    const [mail] = (
      await t.deps.db.execute<{ text: string }>(
        sql`select text from mail_outbox where "to" = ${user.email} order by created_at desc limit 1`,
      )
    ).rows;
    const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
    await t.deps.db.execute(
      sql`update verification set expires_at = now() - interval '1 second' where identifier = ${`erase:${user.id}`}`,
    );
    const res = await client.request("/api/accounts/me", { method: "DELETE", json: { code } });
    expect(res.status).toBe(400);
    expect((await t.deps.db.execute(sql`select 1 from "user" where id = ${user.id}`)).rows).toHaveLength(1);
  });

  it("a shop's owner is told to hand over their shop first", async () => {
    const owner = await t.createUser({ password: "un-mot-de-passe-solide" });
    await t.createShop(owner.id);
    const client = t.client();
    await client.signIn(owner.email, owner.password);
    const res = await client.request("/api/accounts/me", {
      method: "DELETE",
      json: { password: owner.password },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/propriétaire d'une boutique/);
  });

  it("needs a signed-in person and a password", async () => {
    expect((await t.client().request("/api/accounts/me", { method: "DELETE", json: { password: "x" } })).status).toBe(
      401,
    );
    const { client } = await signedIn(t);
    const res = await client.request("/api/accounts/me", { method: "DELETE", json: {} });
    expect(res.status).toBe(400);
  });
});
