import { describe, expect, it } from "vitest";
import { menuFor, tabsOf } from "./menu.ts";

const links = (roles: Parameters<typeof menuFor>[0]) => menuFor(roles).flatMap((g) => g.links.map((l) => l.to));

describe("the back-office menu by role (issue 25 rows 4 and 5)", () => {
  it("gives staff the counter's tools at their own addresses, and their profile", () => {
    expect(links(["staff"])).toEqual(["/manager", "/validate-reward", "/reader", "/admin/monprofil"]);
  });

  it("gives the platform admin the console and no shop page", () => {
    expect(links(["platform"])).toEqual([
      "/admin",
      "/admin?vue=boutiques",
      "/admin?vue=comptes",
      "/admin/logs",
      "/admin/connected",
      "/admin/sessions",
      "/admin/push",
      "/admin?vue=envois",
      "/admin/monprofil",
    ]);
  });

  it("gives an admin who also runs a shop both, each page once, the owner's addresses", () => {
    const both = links(["platform", "owner"]);
    expect(new Set(both).size).toBe(both.length);
    expect(both).toContain("/admin/creativcard");
    expect(both).toContain("/admin/validate-reward");
    expect(both).not.toContain("/validate-reward");
    expect(menuFor(["platform", "owner"])[0]?.title).toBe("Plateforme");
  });

  it("shows a group's pages as tabs under their short names", () => {
    expect(tabsOf("Jeux")).toEqual({
      label: "Jeux",
      items: [
        { to: "/admin/jeux-concours", label: "Jeux concours" },
        { to: "/admin/gestion-des-lots", label: "Stock de lots" },
        { to: "/admin/gestion-des-lots-2", label: "Lots gagnés" },
      ],
    });
    expect(tabsOf("Plateforme", "Console").items.map((t) => t.to)).toEqual([
      "/admin",
      "/admin?vue=boutiques",
      "/admin?vue=comptes",
      "/admin?vue=envois",
    ]);
  });
});
