import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { contestRules, contests } from "../../src/server/db/schema/index.ts";
import { expectAccessible, snap, type Stack, startStack } from "../setup/e2e.ts";

/**
 * Issue 25 row 6 at 390×844: editing an open contest, the owner sees the fields its published règlement binds
 * disabled with the reason, saves what may change, and no new version of the règlement appears when its text is the
 * same; a draft's form has nothing locked. A member of the shop's team may not edit it at all.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });
const heading = async (page: Page) => (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
const REASON = "Verrouillé : le concours est ouvert, le règlement publié engage la boutique.";

/** The text a control is described by (its hint or its error). */
const description = (control: Locator) =>
  control.evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" "),
  );

async function post(context: BrowserContext, path: string, data: unknown = {}) {
  const res = await context.request.post(`${stack.baseUrl}${path}`, { data, headers: { origin: stack.baseUrl } });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

async function editForm(page: Page, title: string) {
  const item = page.getByRole("listitem").filter({ hasText: title });
  await item.getByRole("button", { name: "Modifier" }).click();
  await eventually(() => page.getByRole("heading", { name: `Modifier « ${title} »` }).isVisible()).toBe(true);
}

describe("issue 25 row 6: editing an open contest", () => {
  it("issue 25 row 6: the owner sees the locked fields of an open draw disabled with the reason, saves a description and no new règlement version appears; a draft's form locks nothing; a team member may not edit it", async () => {
    const owner = await stack.createUser({ firstName: "Inès" });
    const shop = await stack.createShop(owner.id, { name: `Chocolaterie ${randomUUID().slice(0, 6)}` });
    const context = await stack.newContext();
    await stack.signIn(context, owner.email, owner.password);
    const base = `/api/backoffice/shops/${shop.id}`;
    const { lot } = await post(context, `${base}/prize-lots`, {
      name: "Ballotin",
      valueCents: 2400,
      quantity: 3,
      handover: "counter",
      claimDays: 15,
    });
    const contest = (title: string) => ({
      kind: "draw",
      title,
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      prizes: [{ lotId: lot.id, quantity: 1 }],
    });
    const { contest: open } = await post(context, `${base}/contests`, contest("Tirage de Pâques"));
    await post(context, `${base}/contests/${open.id}/schedule`);
    await post(context, `${base}/contests`, contest("Tirage d'été"));

    const page = await context.newPage();
    await page.goto("/admin/jeux-concours");
    await eventually(() => heading(page)).toBe("Jeux concours");
    await editForm(page, "Tirage de Pâques");

    // What the règlement binds: disabled, each with the reason; the prizes shown as published.
    for (const label of ["Début", "Qui peut participer", "Participations par personne"]) {
      const control = page.getByLabel(label, { exact: true });
      expect(await control.isDisabled(), label).toBe(true);
      expect(await description(control), label).toBe(REASON);
    }
    const prizes = page.getByRole("group", { name: "Lots à gagner" });
    expect(await prizes.textContent()).toContain("Ballotin — 1 gagnant");
    expect(await prizes.textContent()).toContain(REASON);
    expect(await page.getByRole("checkbox").count()).toBe(0);
    // What may change: enabled, and the end says how.
    expect(await page.getByLabel("Titre du jeu").isEnabled()).toBe(true);
    expect(await page.getByLabel("Description (facultatif)").isEnabled()).toBe(true);
    expect(await description(page.getByLabel("Fin", { exact: true }))).toBe(
      "Un jeu en cours peut être prolongé, pas raccourci.",
    );
    await expectAccessible(page);
    await snap(page, "issue25-row6-open-contest-locked");

    await page.getByLabel("Description (facultatif)").fill("Un ballotin pour Pâques, tiré le lundi.");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await eventually(() => page.getByRole("button", { name: "Créer un jeu" }).isVisible()).toBe(true);
    const [saved] = await stack.deps.db.select().from(contests).where(eq(contests.id, open.id));
    expect(saved?.description).toBe("Un ballotin pour Pâques, tiré le lundi.");
    // A description is not in the règlement: still its one version.
    const versions = await stack.deps.db.select().from(contestRules).where(eq(contestRules.contestId, open.id));
    expect(versions.map((v) => v.version)).toEqual([1]);

    // A draft binds nobody yet: nothing locked, no reason shown.
    await editForm(page, "Tirage d'été");
    expect(await page.getByLabel("Début", { exact: true }).isEnabled()).toBe(true);
    expect(await page.getByLabel("Qui peut participer").isEnabled()).toBe(true);
    expect(await page.getByRole("checkbox", { name: /Ballotin/ }).isChecked()).toBe(true);
    expect(await page.getByText(REASON).count()).toBe(0);
    await context.close();

    // A member of the shop's team runs the counter, not its games: no editor, and the API refuses the change.
    const staff = await stack.createUser({ firstName: "Léa" });
    await addStaff(stack.deps, shop.id, staff.id, "member");
    const staffContext = await stack.signedIn(staff);
    const staffPage = await staffContext.newPage();
    await staffPage.goto("/admin/jeux-concours");
    await eventually(() => heading(staffPage)).toBe("Accès refusé");
    expect(await staffPage.getByRole("button", { name: "Modifier" }).count()).toBe(0);
    const refused = await staffContext.request.put(`${stack.baseUrl}${base}/contests/${open.id}`, {
      data: { ...contest("Tirage de Pâques"), description: "Changé par l'équipe" },
      headers: { origin: stack.baseUrl },
    });
    expect(refused.status()).toBe(403);
    const [kept] = await stack.deps.db.select().from(contests).where(eq(contests.id, open.id));
    expect(kept?.description).toBe("Un ballotin pour Pâques, tiré le lundi.");
    await staffContext.close();
  });
});
