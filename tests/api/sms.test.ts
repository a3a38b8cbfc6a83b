import { createHmac, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toE164 } from "../../src/domain/messages/phone.ts";
import { STOP_REPLY_WORDING } from "../../src/domain/messages/sms-text.ts";
import { parseEnv } from "../../src/server/env.ts";
import { collectPersonalData, eraseAccount } from "../../src/server/modules/accounts/rgpd.service.ts";
import { consents, profiles, smsBudgets, smsOutbox, smsUsage } from "../../src/server/db/schema/index.ts";
import { recipientsSql } from "../../src/server/modules/messages/audience.ts";
import type { ChannelContext, MessageForChannel } from "../../src/server/modules/messages/channels/driver.ts";
import { createSmsDriver } from "../../src/server/modules/messages/channels/sms-driver.ts";
import { createSmsProvider, type SmsProviderName } from "../../src/server/modules/messages/channels/sms-gateways.ts";
import { sendWindowOf } from "../../src/server/modules/messages/channels/sms-sending.ts";
import { type SmsGateways, startSmsGateways } from "../fixtures/sms-gateways.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { shopWithOwner, signedIn } from "./shops-helpers.ts";

const WEBHOOK_SECRET = "webhook-secret-0123456789";
let t: TestApp;
let gw: SmsGateways;
beforeAll(async () => {
  gw = await startSmsGateways();
  t = await createTestApp({ env: { ...gw.envFor("smsgate"), SMS_WEBHOOK_SECRET: WEBHOOK_SECRET } });
});
afterAll(async () => {
  await t.close();
  await gw.close();
});

const envWith = (extra: Record<string, string>) =>
  parseEnv({ NODE_ENV: "test", SECRET: "x".repeat(40), DATA_DIR: "/tmp/fidele-sms-unused", ...extra });
const providerFor = (name: Exclude<SmsProviderName, "outbox">) => createSmsProvider(envWith(gw.envFor(name)));
const lastReceived = () => gw.received.at(-1)!;

/** A shopper with a mobile number and the SMS consent of the profile. */
async function smsShopper(phone: string, granted = true) {
  const user = await t.createUser();
  await t.deps.db
    .insert(profiles)
    .values({ id: user.id, firstName: "Inès", lastName: "Moreau", phone })
    .onConflictDoUpdate({ target: profiles.id, set: { phone } });
  await t.deps.db.insert(consents).values({ userId: user.id, channel: "sms", granted, wording: "test" });
  return user;
}

const uniquePhone = () => `+3361${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;

describe("SMS gateways: each provider speaks its gateway's HTTP API", () => {
  const to = "+33612345678";
  const text = "Le Fournil : Fête des pains ce samedi\nSTOP au 36180";

  it("Brevo: POST /v3/transactionalSMS/send with api-key, recipient without +, type and unicode flag", async () => {
    const result = await providerFor("brevo").send({ to, text, marketing: true });
    expect(result).toMatchObject({ ok: true, status: 201 });
    expect(result.ok && result.id).toBeTruthy();
    const got = lastReceived();
    expect(got.provider).toBe("brevo");
    expect(got.headers["api-key"]).toBe("xkeysib-test-key");
    expect(got.body).toMatchObject({
      sender: "Fidele",
      recipient: "33612345678",
      content: text,
      type: "marketing",
      unicodeEnabled: true, // "ê" is not GSM-7
    });
    await providerFor("brevo").send({ to, text: "Code 1234", marketing: false });
    expect(lastReceived().body).toMatchObject({ type: "transactional", unicodeEnabled: false });
  });

  it("OVHcloud: POST /1.0/sms/{service}/jobs signed ($1$ SHA-1) with the API's own clock; OVH adds STOP itself", async () => {
    const provider = providerFor("ovh");
    expect(provider.addsOwnStopClause).toBe(true);
    const result = await provider.send({ to, text: "Le Fournil : promo", marketing: true });
    expect(result).toMatchObject({ ok: true, status: 200 });
    const got = lastReceived();
    expect(got.provider).toBe("ovh");
    expect(got.headers["x-ovh-application"]).toBe("ovh-app-key");
    expect(String(got.headers["x-ovh-signature"])).toMatch(/^\$1\$[0-9a-f]{40}$/);
    // The fake's clock is 1000 s ahead: a timestamp from our clock would have been refused.
    expect(Number(got.headers["x-ovh-timestamp"]) - Date.now() / 1000).toBeGreaterThan(990);
    expect(got.body).toMatchObject({
      receivers: [to],
      message: "Le Fournil : promo",
      sender: "Fidele",
      noStopClause: false,
      coding: "7bit",
    });
    await provider.send({ to, text: "Test", marketing: false });
    expect(lastReceived().body).toMatchObject({ noStopClause: true });
  });

  it("Twilio: POST Messages.json, basic auth, form-encoded To/From/Body", async () => {
    const result = await providerFor("twilio").send({ to, text, marketing: true });
    expect(result).toMatchObject({ ok: true, status: 201 });
    expect(result.ok && result.id).toMatch(/^SM/);
    const got = lastReceived();
    expect(got.provider).toBe("twilio");
    expect(got.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(got.headers.authorization).toBe(
      `Basic ${Buffer.from("AC0123456789abcdef0123456789abcdef:twilio-token").toString("base64")}`,
    );
    expect(got.body).toEqual({ To: to, From: "Fidele", Body: text });
  });

  it("SMSGate (Android phone): POST /message, basic auth, { textMessage, phoneNumbers }", async () => {
    const result = await providerFor("smsgate").send({ to, text, marketing: true });
    expect(result).toMatchObject({ ok: true, status: 202 });
    const got = lastReceived();
    expect(got.provider).toBe("smsgate");
    expect(got.body).toEqual({ textMessage: { text }, phoneNumbers: [to] });
  });

  it("a refusal is reported with the gateway's answer; 429 carries Retry-After; a missing credential fails at start", async () => {
    const bad = createSmsProvider(envWith({ ...gw.envFor("brevo"), BREVO_API_KEY: "wrong" }));
    const refused = await bad.send({ to, text: "x", marketing: false });
    expect(refused).toMatchObject({ ok: false, status: 401, retryAfterMs: null });
    expect(refused.answer).toContain("Key not found");
    gw.failNext({ status: 429, headers: { "retry-after": "7" }, body: { message: "Too many requests" } });
    expect(await providerFor("twilio").send({ to, text: "x", marketing: false })).toMatchObject({
      ok: false,
      status: 429,
      retryAfterMs: 7000,
    });
    expect(() => createSmsProvider(envWith({ SMS_PROVIDER: "ovh" }))).toThrow(/OVH_APP_KEY/);
  });
});

/** The platform admin grants `monthlySegments` to a shop through the console's route. */
async function grant(shopId: string, monthlySegments: number) {
  const admin = await signedIn(t, { role: "admin" });
  const res = await admin.client.request(`/api/backoffice/platform/shops/${shopId}/sms-budget`, {
    method: "PUT",
    json: { monthlySegments },
  });
  expect(res.status).toBe(200);
  return { admin, body: await res.json() };
}

/** The code of the last verification SMS the gateway received for `to`. */
const codeSentTo = (to: string) => {
  const got = gw.received.filter((r) => r.to === to).at(-1);
  return /code de vérification est (\d{6})/.exec(got?.text ?? "")?.[1] ?? "";
};

/** A shop with a granted budget whose owner verified `phone` by the code. */
async function verifiedOwner(phone: string, budget = 20) {
  const { shop, owner } = await shopWithOwner(t);
  await grant(shop.id, budget);
  const base = `/api/backoffice/shops/${shop.id}/sms`;
  expect((await owner.client.request(`${base}/phone`, { json: { phone } })).status).toBe(200);
  const confirmed = await owner.client.request(`${base}/phone/confirm`, {
    json: { code: codeSentTo(toE164(phone) ?? phone) },
  });
  expect(confirmed.status).toBe(200);
  return { shop, owner, base };
}

describe("/admin/test-sms", () => {
  it("issue 22 row 2: a new shop's SMS budget is 0, its owner cannot raise it (only ask), the platform admin grants it, audited", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const base = `/api/backoffice/shops/${shop.id}/sms`;
    expect(await (await owner.client.request(base)).json()).toMatchObject({
      budget: { monthlySegments: 0, usedSegments: 0 },
      request: null,
      phone: { verified: null },
    });
    // The owner's PUT of the budget is gone; no other path sets it.
    const put = await owner.client.request(`${base}/budget`, { method: "PUT", json: { monthlySegments: 10_000 } });
    expect(put.status).toBe(404);
    const asAdminRoute = await owner.client.request(`/api/backoffice/platform/shops/${shop.id}/sms-budget`, {
      method: "PUT",
      json: { monthlySegments: 10_000 },
    });
    expect(asAdminRoute.status).toBe(403);
    // Without a budget nothing leaves at the operator's expense, not even a verification code.
    const code = await owner.client.request(`${base}/phone`, { json: { phone: "06 12 00 00 01" } });
    expect(code.status).toBe(409);
    expect((await code.json()).message).toMatch(/pas encore été accordé par l'administration/);
    expect(gw.received.filter((r) => r.to === "+33612000001")).toHaveLength(0);

    // The owner asks; the request is kept and shown to the platform admin.
    const ask = await owner.client.request(`${base}/budget-request`, {
      json: { monthlySegments: 10_000_000, note: "Fête des pains" },
    });
    expect(ask.status).toBe(400);
    const asked = await owner.client.request(`${base}/budget-request`, {
      json: { monthlySegments: 300, note: "Fête des pains" },
    });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toMatchObject({
      budget: { monthlySegments: 0 },
      request: { monthlySegments: 300, note: "Fête des pains" },
    });
    const admin = await signedIn(t, { role: "admin" });
    const listed = (await (await admin.client.request("/api/backoffice/platform/sms")).json()).shops.find(
      (s: { id: string }) => s.id === shop.id,
    );
    expect(listed).toMatchObject({ monthlySegments: 0, request: { monthlySegments: 300, note: "Fête des pains" } });

    // The platform admin grants (bounded by SMS_MONTHLY_SEGMENTS_MAX): the request is answered, the act audited.
    const tooMuch = await admin.client.request(`/api/backoffice/platform/shops/${shop.id}/sms-budget`, {
      method: "PUT",
      json: { monthlySegments: 10_000_000 },
    });
    expect(tooMuch.status).toBe(400);
    const granted = await admin.client.request(`/api/backoffice/platform/shops/${shop.id}/sms-budget`, {
      method: "PUT",
      json: { monthlySegments: 200 },
    });
    expect(granted.status).toBe(200);
    expect(await (await owner.client.request(base)).json()).toMatchObject({
      budget: { monthlySegments: 200 },
      request: null,
    });
    const audit = await t.deps.db.execute<{ actor_id: string; action: string; details: Record<string, unknown> }>(
      sql`select actor_id, action, details from audit_log where shop_id = ${shop.id} order by created_at`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(["sms.budget_request", "sms.budget"]);
    expect(audit.rows[1]).toMatchObject({
      actor_id: admin.user.id,
      details: { monthlySegments: 200, previous: 0, requested: 300 },
    });
    const unknownShop = await admin.client.request(`/api/backoffice/platform/shops/${randomUUID()}/sms-budget`, {
      method: "PUT",
      json: { monthlySegments: 5 },
    });
    expect(unknownShop.status).toBe(404);
  });

  it("issue 22 row 2: a test SMS goes only to the owner's own number, verified once by a code that expires and allows 5 tries", async () => {
    const { shop, owner } = await shopWithOwner(t);
    await grant(shop.id, 50);
    const base = `/api/backoffice/shops/${shop.id}/sms`;
    // Not verified yet: no test SMS at all, to any number.
    const early = await owner.client.request(`${base}/test`, {
      json: { to: "06 12 00 00 02", text: "Colis en attente" },
    });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toMatch(/Vérifiez d'abord votre numéro/);

    // A code goes to the number; a wrong code is refused; the right one verifies it.
    expect((await owner.client.request(`${base}/phone`, { json: { phone: "06 12 00 00 02" } })).status).toBe(200);
    const code = codeSentTo("+33612000002");
    expect(code).toMatch(/^\d{6}$/);
    expect(await (await owner.client.request(base)).json()).toMatchObject({
      phone: { verified: null, pending: "06 12 00 00 02" },
    });
    const wrong = await owner.client.request(`${base}/phone/confirm`, {
      json: { code: code === "000000" ? "111111" : "000000" },
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe("Code incorrect.");
    expect((await owner.client.request(`${base}/phone/confirm`, { json: { code } })).status).toBe(200);
    expect(await (await owner.client.request(base)).json()).toMatchObject({
      phone: { verified: "06 12 00 00 02", pending: null },
      budget: { usedSegments: 1 },
    });
    // The code is used up.
    expect((await owner.client.request(`${base}/phone/confirm`, { json: { code } })).status).toBe(400);

    // A test to any other number is refused (the row's parcel-fee text to three numbers): nothing leaves.
    const before = gw.received.length;
    for (const to of ["06 98 76 54 31", "07 81 22 33 44", "06 55 44 33 22"]) {
      const res = await owner.client.request(`${base}/test`, {
        json: { to, text: "Votre colis est en attente : réglez 1,99 € de frais sur colis-suivi.example" },
      });
      expect(res.status).toBe(403);
      expect((await res.json()).message).toMatch(/ne part que vers votre numéro vérifié \(06 12 00 00 02\)/);
    }
    expect(gw.received.length).toBe(before);
    // To the verified number (named or not) it leaves.
    const ok = await owner.client.request(`${base}/test`, { json: { text: "Bonjour" } });
    expect(ok.status).toBe(200);
    expect(lastReceived()).toMatchObject({ to: "+33612000002", text: "Bonjour" });

    // Another number: a new code; the verified one stays until the new code is confirmed.
    expect((await owner.client.request(`${base}/phone`, { json: { phone: "06 12 00 00 03" } })).status).toBe(200);
    const second = codeSentTo("+33612000003");
    // Five wrong tries use the code up: even the right one is then refused.
    for (let i = 0; i < 5; i++) {
      const bad = String((Number(second) + 1 + i) % 1_000_000).padStart(6, "0");
      expect((await owner.client.request(`${base}/phone/confirm`, { json: { code: bad } })).status).toBe(400);
    }
    const spent = await owner.client.request(`${base}/phone/confirm`, { json: { code: second } });
    expect(spent.status).toBe(400);
    expect((await spent.json()).message).toMatch(/expiré ou a été trop essayé/);
    expect(await (await owner.client.request(base)).json()).toMatchObject({ phone: { verified: "06 12 00 00 02" } });

    // An expired code is refused.
    expect((await owner.client.request(`${base}/phone`, { json: { phone: "06 12 00 00 03" } })).status).toBe(200);
    const third = codeSentTo("+33612000003");
    await t.deps.db.execute(
      sql`update sms_owner_phones set code_expires_at = now() - interval '1 second' where user_id = ${owner.user.id}`,
    );
    expect((await owner.client.request(`${base}/phone/confirm`, { json: { code: third } })).status).toBe(400);

    // Codes are throttled: three an hour per person.
    const fourth = await owner.client.request(`${base}/phone`, { json: { phone: "06 12 00 00 04" } });
    expect(fourth.status).toBe(429);
    expect((await fourth.json()).message).toMatch(/Trop de tentatives. Réessayez dans \d+ minutes/);
    expect(gw.received.filter((r) => r.to === "+33612000004")).toHaveLength(0);
  });

  it("issue 22 row 2: test SMS are throttled (SMS_TESTS_PER_HOUR, 5 by default): the sixth in the hour is refused", async () => {
    const { base, owner } = await verifiedOwner("06 12 00 00 05", 100);
    for (let i = 0; i < 5; i++) {
      expect((await owner.client.request(`${base}/test`, { json: { text: `Essai ${i}` } })).status).toBe(200);
    }
    const sixth = await owner.client.request(`${base}/test`, { json: { text: "Essai 5" } });
    expect(sixth.status).toBe(429);
    expect((await sixth.json()).message).toMatch(/Trop de tentatives/);
    expect(gw.received.filter((r) => r.to === "+33612000005").map((r) => r.text)).not.toContain("Essai 5");
  });

  it("issue 22 row 2: the verified number and its SMS are in « Mes données » (never the code's hash) and leave with the account", async () => {
    const { owner, base } = await verifiedOwner("06 12 00 00 06", 10);
    expect((await owner.client.request(`${base}/test`, { json: { text: "Bonjour" } })).status).toBe(200);
    const data = await collectPersonalData(t.deps.db, owner.user.id);
    expect(data.sms_owner_phones).toEqual([
      expect.objectContaining({ user_id: owner.user.id, verified_phone: "+33612000006" }),
    ]);
    expect(data.sms_owner_phones?.[0]).not.toHaveProperty("code_hash");
    expect(data.sms_outbox?.map((r) => r.kind).sort()).toEqual(["test", "verification"]);
    // Once the shop is handed over, the account can go: the number goes with it, and every SMS sent to it.
    await t.deps.db.execute(sql`delete from member where user_id = ${owner.user.id}`);
    await eraseAccount(t.deps, owner.user.id, { purge: true });
    const left = await t.deps.db.execute(sql`
      select 1 from sms_outbox where "to" = '+33612000006'
      union all select 1 from sms_owner_phones where user_id = ${owner.user.id}`);
    expect(left.rows).toEqual([]);
  });

  it("sends a test SMS, shows the gateway's answer, the segments and UCS-2; counts it in the month's budget", async () => {
    const { shop, owner, base } = await verifiedOwner("06 12 34 56 78", 5);
    const overview = await owner.client.request(base);
    expect(overview.status).toBe(200);
    expect(await overview.json()).toMatchObject({
      provider: "smsgate",
      stopNumber: "36180",
      budget: { monthlySegments: 5, usedSegments: 1 },
      testsPerHour: 5,
    });

    const badNumber = await owner.client.request(`${base}/test`, { json: { to: "01 42 68 53 00", text: "Bonjour" } });
    expect(badNumber.status).toBe(400);
    expect((await badNumber.json()).message).toMatch(/mobile valide/);

    const res = await owner.client.request(`${base}/test`, {
      json: { to: "06 12 34 56 78", text: "Fête des pains à 8 h" },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      ok: true,
      provider: "smsgate",
      status: 202,
      segments: 1,
      encoding: "UCS-2",
      nonGsm: ["ê"],
      budget: { monthlySegments: 5, usedSegments: 2 },
    });
    expect(body.answer).toMatch(/^HTTP 202 .*Pending/);
    expect(lastReceived()).toMatchObject({ to: "+33612345678", text: "Fête des pains à 8 h" });

    // A refused SMS gives its segments back.
    gw.failNext({ status: 500, body: { message: "device offline" } });
    const failed = await (await owner.client.request(`${base}/test`, { json: { text: "Bonjour" } })).json();
    expect(failed).toMatchObject({ ok: false, status: 500, budget: { usedSegments: 2 } });
    expect(failed.answer).toContain("device offline");

    // The budget spent, the test is refused in French.
    await t.deps.db.execute(sql`update sms_usage set segments = 5 where shop_id = ${shop.id}`);
    const spent = await owner.client.request(`${base}/test`, { json: { text: "Bonjour" } });
    expect(spent.status).toBe(409);
    expect((await spent.json()).message).toMatch(/budget SMS de ce mois est atteint/);

    // The platform admin reads every SMS in the outbox; nobody else does.
    const admin = await signedIn(t, { role: "admin" });
    const outbox = await (await admin.client.request("/api/sms/outbox")).json();
    expect(
      outbox.messages
        .filter((m: { shopName: string }) => m.shopName === shop.name)
        .map((m: { status: string; kind: string }) => `${m.kind} ${m.status}`),
    ).toEqual(["test failed", "test sent", "verification sent"]);
    expect((await owner.client.request("/api/sms/outbox")).status).toBe(403);
    // Another shop's owner cannot use this shop's SMS.
    const other = await shopWithOwner(t);
    expect((await other.owner.client.request(`${base}/test`, { json: { text: "x" } })).status).toBe(404);
    expect((await other.owner.client.request(`${base}/phone`, { json: { phone: "0612345678" } })).status).toBe(404);
  });
});

describe("STOP replies (the gateway's webhook)", () => {
  const post = (body: unknown, headers: Record<string, string> = {}, query = "") =>
    // As a gateway calls it: no Origin, no cookie.
    t.app.request(`${t.env.APP_URL}/api/sms/webhook${query}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const signed = (body: unknown, secret = WEBHOOK_SECRET) => {
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac("sha256", secret)
      .update(raw + timestamp)
      .digest("hex");
    return post(raw, { "x-signature": signature, "x-timestamp": timestamp });
  };
  const smsConsent = async (userId: string) =>
    (
      await t.deps.db.execute<{ granted: boolean; wording: string }>(sql`
        select granted, wording from consents where user_id = ${userId} and channel = 'sms' order by created_at desc limit 1`)
    ).rows[0];

  it("STOP from a number unsubscribes it (a consent row « STOP reçu par SMS »), and only with the secret", async () => {
    const phone = uniquePhone();
    const shopper = await smsShopper(phone);
    const received = {
      event: "sms:received",
      payload: { phoneNumber: phone, message: "STOP", receivedAt: new Date().toISOString() },
    };
    expect((await post(received)).status).toBe(401);
    expect((await signed(received, "not-the-secret-at-all")).status).toBe(401);
    expect((await post(received, { "x-webhook-secret": "wrong" })).status).toBe(401);
    expect(await smsConsent(shopper.id)).toMatchObject({ granted: true });

    const res = await signed(received);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ stop: true, unsubscribed: 1 });
    expect(await smsConsent(shopper.id)).toEqual({ granted: false, wording: STOP_REPLY_WORDING });
    // Out of every SMS audience.
    const { shop } = await shopWithOwner(t);
    const audience = await t.deps.db.execute<{ user_id: string }>(
      sql`${recipientsSql({ kind: "all_shoppers" }, "sms")}`,
    );
    expect(audience.rows.map((r) => r.user_id)).not.toContain(shopper.id);
    expect(shop.id).toBeTruthy();
  });

  it("the generic shape with the secret in the address; anything but STOP is ignored; a second STOP changes nothing", async () => {
    const phone = uniquePhone();
    const shopper = await smsShopper(phone);
    const national = `0${phone.slice(3)}`;
    expect(await (await post({ from: national, text: "Merci !" }, {}, `?secret=${WEBHOOK_SECRET}`)).json()).toEqual({
      stop: false,
      unsubscribed: 0,
    });
    expect(await (await post({ from: national, text: "Arrêt" }, {}, `?secret=${WEBHOOK_SECRET}`)).json()).toEqual({
      stop: true,
      unsubscribed: 1,
    });
    expect(await (await post({ from: phone, text: "stop" }, { "x-webhook-secret": WEBHOOK_SECRET })).json()).toEqual({
      stop: true,
      unsubscribed: 0,
    });
    const rows = await t.deps.db
      .select()
      .from(consents)
      .where(and(eq(consents.userId, shopper.id), eq(consents.channel, "sms")));
    expect(rows.map((r) => r.granted).sort()).toEqual([false, true]);
    expect((await post("not json", { "x-webhook-secret": WEBHOOK_SECRET })).status).toBe(400);
  });

  it("Twilio's form (From, Body) with the secret in the address: STOP unsubscribes, the answer is an empty TwiML", async () => {
    const phone = uniquePhone();
    const shopper = await smsShopper(phone);
    const form = (fields: Record<string, string>, query = `?secret=${WEBHOOK_SECRET}`) =>
      t.app.request(`${t.env.APP_URL}/api/sms/webhook${query}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const fields = { From: phone, Body: "STOP", MessageSid: "SM0123", AccountSid: "AC0123" };
    // Without the secret, a form is refused like anything else.
    expect((await form(fields, "")).status).toBe(401);
    expect(await smsConsent(shopper.id)).toMatchObject({ granted: true });

    const res = await form(fields);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/xml/);
    expect(await res.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect(await smsConsent(shopper.id)).toEqual({ granted: false, wording: STOP_REPLY_WORDING });
    // A form without a sender is unreadable; a form anywhere else in the API is still refused.
    expect((await form({ Body: "STOP" })).status).toBe(400);
    const elsewhere = await t.app.request(`${t.env.APP_URL}/api/sms/outbox`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=b",
    });
    expect(elsewhere.status).toBe(415);
  });
});

describe("the SMS channel driver", () => {
  const window = sendWindowOf(t?.env ?? envWith({}));
  let clock = new Date("2026-11-24T10:00:00Z"); // a Tuesday, 11:00 in Paris
  const ctx = (): ChannelContext => ({ db: t.deps.db, now: () => clock, deps: t.deps });
  beforeEach(() => {
    clock = new Date("2026-11-24T10:00:00Z");
  });

  async function shopWithBudget(segments: number, name = "Le Fournil") {
    const { shop } = await shopWithOwner(t, { name });
    await t.deps.db.insert(smsBudgets).values({ shopId: shop.id, monthlySegments: segments });
    return shop;
  }
  const messageOf = (shopId: string, extra: Partial<MessageForChannel> = {}): MessageForChannel => ({
    id: randomUUID(),
    shop_id: shopId,
    title: "Fournée du samedi",
    body: "Croissants à -20 % ce samedi.",
    image_url: null,
    link_url: null,
    is_promotional: true,
    ...extra,
  });

  it("writes the shop's name, the title and the body, then « STOP au 36180 »; refunds a refused SMS", async () => {
    const driver = createSmsDriver({ provider: providerFor("smsgate"), window });
    const shop = await shopWithBudget(10);
    const shopper = await smsShopper(uniquePhone());
    const message = messageOf(shop.id);
    const prepared = await driver.prepare!(ctx(), message);
    expect(await driver.deliver(ctx(), message, { id: "d1", user_id: shopper.id }, prepared)).toEqual({
      status: "delivered",
    });
    expect(lastReceived().text).toBe("Le Fournil : Fournée du samedi\nCroissants à -20 % ce samedi.\nSTOP au 36180");
    gw.failNext({ status: 500, body: { message: "boom" } });
    const failed = await driver.deliver(ctx(), message, { id: "d2", user_id: shopper.id }, prepared);
    expect(failed).toMatchObject({ status: "failed", detail: expect.stringContaining("boom") });
    const [usage] = await t.deps.db.select().from(smsUsage).where(eq(smsUsage.shopId, shop.id));
    expect(usage?.segments).toBe(1);
    gw.failNext({ status: 429, headers: { "retry-after": "30" }, body: {} });
    expect(await driver.deliver(ctx(), message, { id: "d3", user_id: shopper.id }, prepared)).toEqual({
      status: "deferred",
      notBefore: new Date(clock.getTime() + 30_000),
    });
  });

  it("with OVHcloud, its own STOP clause replaces ours (noStopClause false), the segments still count it", async () => {
    const driver = createSmsDriver({ provider: providerFor("ovh"), window });
    const shop = await shopWithBudget(10);
    const shopper = await smsShopper(uniquePhone());
    const message = messageOf(shop.id);
    const prepared = await driver.prepare!(ctx(), message);
    expect(await driver.deliver(ctx(), message, { id: "d", user_id: shopper.id }, prepared)).toEqual({
      status: "delivered",
    });
    expect(lastReceived()).toMatchObject({
      provider: "ovh",
      text: "Le Fournil : Fournée du samedi\nCroissants à -20 % ce samedi.",
      body: { noStopClause: false },
    });
  });

  it("holds marketing SMS outside the window: Saturday 21:00 → Monday 08:00 (Paris); nothing leaves", async () => {
    const driver = createSmsDriver({ provider: providerFor("smsgate"), window });
    const shop = await shopWithBudget(10);
    const shopper = await smsShopper(uniquePhone());
    const message = messageOf(shop.id);
    clock = new Date("2026-11-21T20:00:00Z"); // Saturday 21 November 2026, 21:00 in Paris
    const before = gw.received.length;
    const prepared = await driver.prepare!(ctx(), message);
    expect(await driver.deliver(ctx(), message, { id: "d", user_id: shopper.id }, prepared)).toEqual({
      status: "deferred",
      notBefore: new Date("2026-11-23T07:00:00Z"),
    });
    expect(gw.received.length).toBe(before);
  });

  it("skips a shopper who replied STOP (or refused this shop, or has no number)", async () => {
    const driver = createSmsDriver({ provider: providerFor("smsgate"), window });
    const shop = await shopWithBudget(10);
    const message = messageOf(shop.id);
    const prepared = await driver.prepare!(ctx(), message);
    const refused = await smsShopper(uniquePhone(), false);
    expect(await driver.deliver(ctx(), message, { id: "d", user_id: refused.id }, prepared)).toMatchObject({
      status: "skipped",
    });
    const noProfile = await t.createUser();
    expect(await driver.deliver(ctx(), message, { id: "d", user_id: noProfile.id }, prepared)).toMatchObject({
      status: "skipped",
    });
  });

  it("the monthly budget holds under 50 concurrent sends (30 segments: 30 SMS leave, 20 are skipped)", async () => {
    const driver = createSmsDriver({ provider: providerFor("smsgate"), window });
    const shop = await shopWithBudget(30, "Budget");
    const shoppers = await Promise.all(Array.from({ length: 50 }, () => smsShopper(uniquePhone())));
    const message = messageOf(shop.id, { title: "", body: "Promo" });
    const prepared = await driver.prepare!(ctx(), message);
    gw.setDelay(20); // requests overlap at the gateway
    const before = gw.received.length;
    const outcomes = await Promise.all(
      shoppers.map((s, i) => driver.deliver(ctx(), message, { id: `d${i}`, user_id: s.id }, prepared)),
    );
    gw.setDelay(0);
    expect(outcomes.filter((o) => o.status === "delivered")).toHaveLength(30);
    expect(outcomes.filter((o) => o.status === "skipped" && o.detail === "monthly SMS budget reached")).toHaveLength(
      20,
    );
    expect(gw.received.length - before).toBe(30);
    const [usage] = await t.deps.db.select().from(smsUsage).where(eq(smsUsage.shopId, shop.id));
    expect(usage?.segments).toBe(30);
    const kept = await t.deps.db.select().from(smsOutbox).where(eq(smsOutbox.shopId, shop.id));
    expect(kept).toHaveLength(30);
  });
});

describe("a mobile number in the profile, with its own consent", () => {
  const profile = { firstName: "Inès", lastName: "Moreau", consents: { email: false, sms: false, push: false } };

  it("stores the number in E.164, refuses a landline in French, and SMS consent needs a number", async () => {
    const { client, user } = await signedIn(t);
    const bad = await client.request("/api/accounts/profile", {
      method: "PUT",
      json: { ...profile, phone: "01 42 68 53 00" },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields.phone).toMatch(/mobile valide/);
    const noNumber = await client.request("/api/accounts/profile", {
      method: "PUT",
      json: { ...profile, phone: "", consents: { ...profile.consents, sms: true } },
    });
    expect(noNumber.status).toBe(400);
    expect((await noNumber.json()).fields.phone).toBe("Indiquez votre numéro de mobile pour recevoir des SMS.");
    // /notif cannot turn SMS on without a number either.
    const early = await client.request("/api/messages/preferences", {
      method: "PUT",
      json: { shopId: null, channel: "sms", granted: true },
    });
    expect(early.status).toBe(400);

    const ok = await client.request("/api/accounts/profile", {
      method: "PUT",
      json: { ...profile, phone: "06 12 34 56 78", consents: { ...profile.consents, sms: true } },
    });
    expect(ok.status).toBe(200);
    const [row] = await t.deps.db.select().from(profiles).where(eq(profiles.id, user.id));
    expect(row?.phone).toBe("+33612345678");
    const me = await (await client.request("/api/accounts/me")).json();
    expect(me.me.profile).toMatchObject({ phone: "+33612345678", consents: { sms: true } });
    // A client that sends no phone keeps the stored one.
    await client.request("/api/accounts/profile", {
      method: "PUT",
      json: { ...profile, consents: { ...profile.consents, sms: true } },
    });
    const [kept] = await t.deps.db.select().from(profiles).where(eq(profiles.id, user.id));
    expect(kept?.phone).toBe("+33612345678");

    const prefs = await (await client.request("/api/messages/preferences")).json();
    expect(prefs).toMatchObject({ channels: { sms: true }, phone: "06 12 34 56 78" });
    const off = await client.request("/api/messages/preferences", {
      method: "PUT",
      json: { shopId: null, channel: "sms", granted: false },
    });
    expect((await off.json()).channels.sms).toBe(false);
  });

  it("a shop's SMS refusal in /notif keeps that shop's SMS from the person; the count shows SMS recipients", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const a = await smsShopper(uniquePhone());
    const b = await smsShopper(uniquePhone());
    for (const u of [a, b]) {
      await t.deps.db.execute(
        sql`insert into cards (shop_id, user_id, visits, last_scan_at) values (${shop.id}, ${u.id}, 1, now())`,
      );
    }
    const count = async () =>
      (
        await (
          await owner.client.request(`/api/backoffice/shops/${shop.id}/messages/audience`, { json: { push: false, sms: true } })
        ).json()
      ).sms;
    expect(await count()).toBe(2);
    const ctx = await t.deps.auth.$context;
    const session = await ctx.internalAdapter.createSession(b.id);
    const client = t.client();
    client.jar.set(
      "fidele.session_token",
      encodeURIComponent(
        `${session.token}.${createHmac("sha256", t.env.SECRET).update(session.token).digest("base64")}`,
      ),
    );
    const res = await client.request("/api/messages/preferences", {
      method: "PUT",
      json: { shopId: shop.id, channel: "sms", granted: false },
    });
    expect(res.status).toBe(200);
    expect(await count()).toBe(1);
  });
});
