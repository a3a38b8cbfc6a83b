import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordVisit } from "../../src/server/db/factories.ts";
import { buildPushPayload } from "../../src/domain/messages/payload.ts";
import { messageDeliveries, messages, pushSubscriptions } from "../../src/server/db/schema/index.ts";
import { trustCertificateAuthority } from "../../src/server/lib/outbound.ts";
import { type PushService, startPushService } from "../fixtures/push-service.ts";
import {
  eventually,
  expectAccessible,
  heading,
  open,
  type Stack,
  startStack,
  unique,
  waitForControl,
} from "../setup/e2e.ts";

/**
 * Issue 14 in the browser at 390×844: a shopper turns push on in /notif, the owner composes a message to a
 * segment, the shopper's inbox shows it unread, opening it reads it, the owner sees it read. The browser's push
 * service is replaced by the local HTTPS one (PushManager.subscribe answers with its address: a headless browser
 * here cannot reach a real push service); the server really encrypts and sends to it, and it decrypts.
 */
let stack: Stack;
let ps: PushService;
beforeAll(async () => {
  ps = await startPushService();
  trustCertificateAuthority(ps.cert);
  stack = await startStack({ env: { PUSH_SERVICE_ORIGINS: ps.origin } });
});
afterAll(async () => {
  trustCertificateAuthority(undefined);
  await stack?.close();
  await ps?.close();
});

describe("messages", () => {
  it("push on in /notif, a message to a segment, unread in the inbox, read when opened, seen read by the owner", async () => {
    const owner = await stack.createUser({ firstName: "Odile", lastName: "Marchand" });
    const shop = await stack.createShop(owner.id, { name: `Fournée ${unique()}` });
    const shopper = await stack.createUser({ firstName: "Léa", lastName: "Girard" });
    const away = await stack.createUser({ firstName: "Marc", lastName: "Petit" });
    await recordVisit(stack.deps, { shopId: shop.id, userId: shopper.id, at: new Date(Date.now() - 2 * 86_400_000) });
    await recordVisit(stack.deps, { shopId: shop.id, userId: away.id, at: new Date(Date.now() - 60 * 86_400_000) });

    // The shopper's phone: service workers on, notifications allowed, the push service is the local one.
    const device = ps.newDevice();
    const shopperContext = await stack.signedIn(shopper, { serviceWorkers: "allow" });
    await shopperContext.grantPermissions(["notifications"], { origin: stack.baseUrl });
    await shopperContext.addInitScript((sub) => {
      const fake = {
        endpoint: sub.endpoint,
        options: { applicationServerKey: null, userVisibleOnly: true },
        toJSON: () => ({ endpoint: sub.endpoint, keys: sub.keys }),
        unsubscribe: async () => true,
        getKey: () => null,
      };
      let subscribed = false;
      PushManager.prototype.subscribe = async () => {
        subscribed = true;
        return fake as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () =>
        (subscribed ? fake : null) as unknown as PushSubscription | null;
    }, device.subscription);
    const page = await shopperContext.newPage();

    await open(page, "/notif", "Réglages des notifications");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Activer les notifications" }).click();
    await eventually(() => page.getByText("Notifications activées sur cet appareil.").count()).toBe(1);
    const rows = await stack.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, shopper.id));
    expect(rows.map((r) => r.endpoint)).toEqual([device.subscription.endpoint]);
    await eventually(() => ps.for(device.pushId).map((r) => (r.payload as { title: string }).title)).toEqual([
      "Merci de vous être abonné !",
    ]);

    // The owner composes a message to those who came in the last 7 days.
    const ownerContext = await stack.signedIn(owner);
    const admin = await ownerContext.newPage();
    await open(admin, "/admin/envoyer-un-message", "Envoyer un message");
    await admin.getByLabel("Destinataires").selectOption("visited_within");
    await admin.getByLabel("Venus il y a moins de (jours)").fill("7");
    await eventually(() => admin.getByTestId("audience-count").textContent()).toBe(
      "1 personne recevra ce message, dont 1 par notification push.",
    );
    const title = `Croissants offerts ${unique()}`;
    await admin.getByLabel("Titre").fill(title);
    await admin.getByLabel("Texte").fill("Un croissant offert pour tout pain acheté ce samedi.");
    await eventually(() => admin.getByRole("figure", { name: "Aperçu sur un téléphone" }).textContent()).toContain(
      title,
    );
    await expectAccessible(admin);
    await admin.getByRole("button", { name: "Envoyer" }).click();
    await eventually(() => admin.getByText(`« ${title} » est en cours d'envoi.`).count()).toBe(1);

    // The push reaches the device (decrypted by the local push service); the shopper away for 60 days gets nothing.
    await eventually(() => ps.for(device.pushId).map((r) => (r.payload as { title: string }).title)).toContain(title);
    const [delivery] = await stack.deps.db
      .select()
      .from(messageDeliveries)
      .where(and(eq(messageDeliveries.userId, shopper.id), eq(messageDeliveries.channel, "inapp")));
    expect(delivery?.status).toBe("delivered");
    expect(await stack.deps.db.select().from(messageDeliveries).where(eq(messageDeliveries.userId, away.id))).toEqual(
      [],
    );

    // The inbox: the header's count (live), the message unread, then read once opened.
    await page.goto("/");
    await eventually(() => page.getByTestId("unread-count").textContent()).toBe("1");
    await page.getByRole("link", { name: "Notifications : 1 message non lu" }).click();
    await eventually(() => heading(page)).toBe("Notifications");
    const item = page.getByTestId("inbox-item").filter({ hasText: title });
    await eventually(() => item.getAttribute("data-unread")).toBe("true");
    await expectAccessible(page);
    await item.click();
    await eventually(() => heading(page)).toBe(title);
    expect(page.url()).toMatch(/\/messages\/[0-9a-f-]{36}$/);
    await eventually(() => page.getByText("Un croissant offert pour tout pain acheté ce samedi.").count()).toBe(1);
    await expectAccessible(page);
    await open(page, "/notifications", "Notifications");
    await eventually(() => item.getAttribute("data-unread")).toBe(null);
    expect(await page.getByText("Tout est lu.").count()).toBe(1);

    // The owner sees it read.
    await open(admin, "/admin/message", "Messages");
    const sent = admin.getByTestId("sent-message").filter({ hasText: title });
    await eventually(async () => (await sent.textContent()) ?? "").toMatch(/Remis1Lus1/);
    await expectAccessible(admin);

    // Someone else's message is a 404 page.
    const messageId = page.url().split("/").pop();
    const otherContext = await stack.signedIn(away);
    const other = await otherContext.newPage();
    await other.goto(
      `/messages/${(await stack.deps.db.select().from(messageDeliveries).where(eq(messageDeliveries.userId, shopper.id)))[0]!.messageId}`,
    );
    await eventually(() => heading(other)).toBe("Message introuvable");
    void messageId;

    await shopperContext.close();
    await ownerContext.close();
    await otherContext.close();
  });

  it("the service worker shows a delivered push (title, text, icon, image) and a tap opens the message", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Primeur ${unique()}` });
    const shopper = await stack.createUser();
    const [message] = await stack.deps.db
      .insert(messages)
      .values({
        shopId: shop.id,
        audience: "customers",
        segment: { kind: "all" },
        title: "Fraises du jour",
        body: "Arrivées ce matin.",
        status: "sent",
      })
      .returning();
    await stack.deps.db.insert(messageDeliveries).values({
      messageId: message!.id,
      userId: shopper.id,
      channel: "inapp",
      status: "delivered",
      deliveredAt: new Date(),
    });

    const context = await stack.signedIn(shopper, { serviceWorkers: "allow" });
    await context.grantPermissions(["notifications"], { origin: stack.baseUrl });
    const page = await context.newPage();
    await page.goto("/");
    await waitForControl(page);
    const [worker] = context.serviceWorkers();
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => registrations.push(...event.registrations));
    await cdp.send("ServiceWorker.enable");
    await eventually(() => registrations.filter((r) => !r.isDeleted && r.scopeURL === `${stack.baseUrl}/`).length).toBe(
      1,
    );
    const registrationId = registrations.find((r) => !r.isDeleted)!.registrationId;

    // No window of the app in front (a focused one shows the foreground notification itself, SPEC §4).
    await page.goto("about:blank");
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: stack.baseUrl,
      registrationId,
      data: buildPushPayload({
        id: message!.id,
        title: "Fraises du jour",
        body: "Arrivées ce matin.",
        image: `${stack.baseUrl}/pwa-192x192.png`,
      }),
    });
    type Shown = { title: string; body: string; icon: string; image: string; data: { url: string } };
    const shown = () =>
      worker!.evaluate(async () =>
        (await (self as unknown as { registration: ServiceWorkerRegistration }).registration.getNotifications()).map(
          (n: Notification) => ({
            title: n.title,
            body: n.body,
            icon: n.icon,
            image: (n as Notification & { image?: string }).image ?? "",
            data: n.data,
          }),
        ),
      ) as Promise<Shown[]>;
    await eventually(shown).toEqual([
      {
        title: "Fraises du jour",
        body: "Arrivées ce matin.",
        icon: `${stack.baseUrl}/pwa-192x192.png`,
        image: `${stack.baseUrl}/pwa-192x192.png`,
        data: { url: `/messages/${message!.id}?from=push` },
      },
    ]);

    // A tap (the worker's notificationclick) brings the app to the message, and counts as a click.
    await page.goto("/");
    await waitForControl(page);
    await worker!.evaluate(async () => {
      type Click = new (type: string, init: { notification: Notification }) => Event;
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        NotificationEvent: Click;
        dispatchEvent: (e: Event) => boolean;
      };
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification: notification! }));
    });
    await eventually(() => page.url()).toBe(`${stack.baseUrl}/messages/${message!.id}?from=push`);
    await eventually(() => heading(page)).toBe("Fraises du jour");
    await eventually(async () => {
      const [row] = await stack.deps.db
        .select()
        .from(messageDeliveries)
        .where(eq(messageDeliveries.messageId, message!.id));
      return Boolean(row?.clickedAt && row.readAt);
    }).toBe(true);
    await context.close();
  });

  it("/firebase-messaging-sw.js is a worker that runs the app's own", async () => {
    const res = await fetch(`${stack.baseUrl}/firebase-messaging-sw.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(await res.text()).toContain('importScripts("/sw.js")');
    const sw = await (await fetch(`${stack.baseUrl}/sw.js`)).text();
    expect(sw).toContain("sw-push.js");
  });

  it("/admin/push: the platform admin's announcements page", async () => {
    const admin = await stack.createUser({ role: "admin" });
    const context = await stack.signedIn(admin);
    const page = await context.newPage();
    await open(page, "/admin/push", "Notifications push");
    await page.getByLabel("Destinataires").selectOption("all_owners");
    await eventually(() => page.getByTestId("audience-count").textContent()).toMatch(/personnes? recevr/);
    await expectAccessible(page);
    await context.close();
  });
});
