import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { recordVisit } from "../../src/server/db/factories.ts";
import { refreshRhythm } from "../../src/server/lib/rhythm.ts";
import { runAutomations } from "../../src/server/modules/messages/automation-run.service.ts";
import { measureAutomations } from "../../src/server/modules/messages/automations.service.ts";
import { eventually, expectAccessible, open, snap, type Stack, startStack, unique } from "../setup/e2e.ts";
import { openAfter } from "../fixtures/send-window.ts";

/**
 * Issue 27 item 4 in the browser at 390×844: the platform admin reads retention across shops and each shop's
 * automations' volumes (sent, held out, returned) in the console's shops view; axe clean.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const DAY = 86_400_000;

describe("platform console: retention and automations across shops", () => {
  it("the admin sees a shop's regulars, those at risk and what its win-back sent, held out and brought back", async () => {
    const owner = await stack.createUser({ withoutPassword: true });
    const shopName = `Boulangerie ${unique(8)}`;
    const shop = await stack.createShop(owner.id, { name: shopName });
    await stack.deps.db.execute(sql`
      insert into automations (shop_id, kind, enabled, enabled_at, days, title, body, holdout_percent)
      values (${shop.id}, 'win_back', true, now(), 30, 'Vous nous manquez', 'Revenez !', 50)`);
    // Twelve regulars (a visit a week, three times), the last 45 days ago; the win-back decided 31 days after.
    const start = new Date(Date.now() - 45 * DAY);
    for (let i = 0; i < 12; i++) {
      const user = await stack.createUser({ withoutPassword: true });
      for (const back of [14, 7, 0]) {
        await recordVisit(stack.deps, { shopId: shop.id, userId: user.id, at: new Date(start.getTime() - back * DAY) });
      }
    }
    const decided = openAfter(start, 31);
    await runAutomations(stack.deps, decided);
    const occasions = (
      await stack.deps.db.execute<{ user_id: string; holdout: boolean }>(sql`
        select user_id, holdout from automation_occasions where shop_id = ${shop.id}`)
    ).rows;
    const sent = occasions.filter((o) => !o.holdout).length;
    const held = occasions.length - sent;
    const back = occasions.find((o) => !o.holdout)!;
    await recordVisit(stack.deps, { shopId: shop.id, userId: back.user_id, at: new Date(decided.getTime() + 2 * DAY) });
    await measureAutomations(stack.deps.db, new Date());
    await refreshRhythm(stack.deps.db, shop.id, new Date());

    const password = "mot-de-passe-admin";
    const admin = await stack.createUser({ email: `admin-${unique(8)}@test.fidele.local`, password, role: "admin" });
    const context = await stack.signedIn(admin);
    const page = await context.newPage();
    await open(page, "/admin?vue=boutiques", /^Administration$/);
    const section = page.getByRole("region", { name: "Fidélisation et automatisations" });
    const card = section.getByTestId("shop-retention").filter({ hasText: shopName });
    await eventually(() => card.count()).toBe(1);
    const text = await card.textContent();
    expect(text).toContain("12 clients");
    expect(text).toContain("12 réguliers, 11 à risque ; une visite tous les 7 jours en général.");
    expect(text).toMatch(
      new RegExp(
        `Vous nous manquez \\(activée\\) : ${sent} envois?, 1 revenu sur ${sent} \\(\\d+\\s%\\) ; ${held} clients? témoins?, 0 revenu sur ${held} \\(0\\s%\\)\\.`,
      ),
    );
    expect(await section.getByTestId("automation-volumes").first().textContent()).toContain("Vous nous manquez");
    await card.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await snap(page, "admin-platform-retention");
  });
});
