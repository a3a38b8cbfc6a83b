import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WeeklyHours } from "../../src/domain/loyalty/hours.ts";
import { addStaff, createShop } from "../../src/server/db/factories.ts";
import { eventually, expectAccessible, heading, snap, type Stack, startStack, unique } from "../setup/e2e.ts";

/**
 * Issue 25 row 17 at 390×844 (and 320 px where it is about width): the counter's shop picker is readable and fits,
 * a button's accessible name starts with its label, a page's title sits in a landmark, the hours' delete buttons stay
 * on a 320 px screen, and /manager never shows two shop pickers. The sweep of every route and role is
 * tests/setup/route-sweep.ts (tests/e2e/no-sideways-scroll-*.test.ts).
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** The page's width beyond the viewport's, at `width` px (0: no sideways scroll). */
async function overflowAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 844 });
  return page.evaluate(
    (w) =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(document.documentElement.scrollWidth - w))),
      ),
    width,
  );
}

describe("issue 25 row 17: accessibility", () => {
  it("issue 25 row 17: a member of two shops gets one readable picker on /reader that fits 320 px, and one picker on /manager (the admin bar's), which moves the counter; a member of one shop gets none", async () => {
    const owner = await stack.createUser();
    const first = await stack.createShop(owner.id, { name: `Primeur ${unique()}` });
    const second = await stack.createShop(owner.id, { name: `Fromager ${unique()}` });
    const lea = await stack.createUser({ firstName: "Léa" });
    await addStaff(stack.deps, first.id, lea.id, "member");
    await addStaff(stack.deps, second.id, lea.id, "member");
    const context = await stack.signedIn(lea);
    const page = await context.newPage();

    await page.goto("/reader");
    const picker = page.getByRole("combobox", { name: "Boutique" });
    await eventually(() => picker.isVisible()).toBe(true);
    await eventually(() => page.getByTestId("short-code").isVisible()).toBe(true);
    await expectAccessible(page);
    expect(await overflowAt(page, 320)).toBeLessThanOrEqual(0);
    await snap(page, "issue25-row17-reader-320");
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto("/manager");
    await eventually(() => heading(page)).toBe("Comptoir");
    await eventually(() => page.getByRole("combobox", { name: "Boutique" }).count()).toBe(1);
    const shown = await page.getByRole("combobox", { name: "Boutique" }).inputValue();
    const other = shown === first.id ? second : first;
    await page.getByRole("combobox", { name: "Boutique" }).selectOption(other.id);
    await eventually(() => page.getByRole("main").getByText(other.name, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("combobox", { name: "Boutique" }).count()).toBe(1);
    await expectAccessible(page);
    await snap(page, "issue25-row17-manager-one-picker");
    await context.close();

    // One shop: no picker at all.
    const hugo = await stack.createUser({ firstName: "Hugo" });
    await addStaff(stack.deps, first.id, hugo.id, "member");
    const single = await stack.signedIn(hugo);
    const singlePage = await single.newPage();
    await singlePage.goto("/manager");
    await eventually(() => heading(singlePage)).toBe("Comptoir");
    await eventually(() => singlePage.getByRole("main").getByText(first.name, { exact: true }).isVisible()).toBe(true);
    expect(await singlePage.getByRole("combobox", { name: "Boutique" }).count()).toBe(0);
    await single.close();
  });

  it("issue 25 row 17: at 320 px the owner's opening hours keep every delete button on screen; a staff member cannot open them", async () => {
    const owner = await stack.createUser();
    const weeklyHours: WeeklyHours = Array.from({ length: 7 }, () => [
      { open: "08:00", close: "12:30" },
      { open: "14:00", close: "19:00" },
    ]);
    const shop = await createShop(stack.deps, { ownerId: owner.id, name: `Fleuriste ${unique()}`, weeklyHours });
    const context = await stack.signedIn(owner, { viewport: { width: 320, height: 844 } });
    const page = await context.newPage();
    await page.goto("/admin/horaires");
    await eventually(() => heading(page)).toBe("Horaires");
    const deletes = page.getByRole("button", { name: /^Supprimer .*, plage \d$/ });
    await eventually(() => deletes.count()).toBe(14);
    for (const box of await deletes.evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().right))) {
      expect(box).toBeLessThanOrEqual(320);
    }
    expect(await overflowAt(page, 320)).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await snap(page, "issue25-row17-hours-320", { fullPage: true });
    await context.close();

    const member = await stack.createUser();
    await addStaff(stack.deps, shop.id, member.id, "member");
    const staff = await stack.signedIn(member);
    const staffPage = await staff.newPage();
    await staffPage.goto("/admin/horaires");
    await eventually(() => heading(staffPage)).toBe("Accès refusé");
    expect(await staffPage.getByRole("button", { name: /^Supprimer / }).count()).toBe(0);
    await staff.close();
  });

  it("issue 25 row 17: « Déconnecter partout » is named by its label (then whose), and a page's title sits in its banner; an owner never sees the console's button", async () => {
    const admin = await stack.createUser({ firstName: "Ada", role: "admin" });
    const zoe = await stack.createUser({ firstName: "Zoé", lastName: "Martin" });
    // Signed in somewhere: the console offers to sign her out everywhere.
    const zoeContext = await stack.signedIn(zoe);
    const context = await stack.signedIn(admin);
    const page = await context.newPage();
    await page.goto("/admin?vue=comptes");
    await page.getByLabel("Rechercher un compte (e-mail, nom)").fill(zoe.email);
    // Its accessible name is its visible label, then whose sessions (WCAG 2.5.3: a voice command says the label).
    const button = page.getByRole("button", { name: /^Déconnecter partout : Zoé/ });
    await eventually(() => button.count()).toBe(1);
    await expectAccessible(page);
    await context.close();
    await zoeContext.close();

    // A shopper page's title is in the page's banner, not floating outside every landmark.
    const visitor = await stack.newContext();
    const faq = await visitor.newPage();
    await faq.goto("/faq");
    await eventually(() => faq.getByRole("banner").getByText("Questions fréquentes").isVisible()).toBe(true);
    await visitor.close();

    // An owner: the console's accounts are not theirs.
    const owner = await stack.createUser();
    await stack.createShop(owner.id, { name: `Caviste ${unique()}` });
    const ownerContext = await stack.signedIn(owner);
    const ownerPage = await ownerContext.newPage();
    await ownerPage.goto("/admin?vue=comptes");
    await eventually(() => heading(ownerPage)).toBe("Tableau de bord");
    expect(await ownerPage.getByRole("button", { name: /Déconnecter partout/ }).count()).toBe(0);
    await ownerContext.close();
  });
});
