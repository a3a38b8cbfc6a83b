import { describe, expect, it } from "vitest";
import { safeRedirect, sameOriginPath } from "../redirect.ts";
import { encodeUrlBraces, linkTarget, linkUrlSchema, MERGE_FIELD_IN_URL_FR, urlProblem } from "./links.ts";

const offSite = [
  "//evil.example/x",
  "/\\evil.example/x",
  "/\\/evil.example",
  "/\t/evil.example",
  "javascript:alert(1)",
  "evil.example",
];

describe("in-app links (issue 22, row 11)", () => {
  it("a path of this site is kept; anything a browser would follow elsewhere is not", () => {
    expect(sameOriginPath("/shop/boulangerie?x=1#haut")).toBe("/shop/boulangerie?x=1#haut");
    for (const target of offSite) expect(sameOriginPath(target)).toBeNull();
    expect(safeRedirect("//evil.example/x", "/profil")).toBe("/profil");
  });

  it("the page that follows a stored link leads nowhere for //host, in the app for a path, outside for https://", () => {
    for (const url of offSite) expect(linkTarget(url)).toBeNull();
    expect(linkTarget("/messages")).toEqual({ external: false, href: "/messages" });
    expect(linkTarget("https://exemple.fr/a")).toEqual({ external: true, href: "https://exemple.fr/a" });
    expect(linkTarget(null)).toBeNull();
  });

  it("the schema says why in French", () => {
    expect(linkUrlSchema.safeParse("//evil.example/x").error?.issues[0]?.message).toBe(
      "Un lien commence par https:// ou par / (une page de l'application).",
    );
    expect(urlProblem("/promo", false)).toBe("Une adresse commence par https://.");
  });
});

describe("merge fields never in addresses (issue 22, row 12)", () => {
  it("an address holding {{…}} is refused, however spaced; its braces are encoded where it is used", () => {
    for (const url of [
      "https://t.example/p.gif?who={{prenom}}",
      "https://t.example/{{ points }}",
      "/shop?x={{prenom}}",
    ]) {
      expect(urlProblem(url, true)).toBe(MERGE_FIELD_IN_URL_FR);
    }
    expect(urlProblem("https://t.example/a?b={c}", true)).toBeNull();
    expect(encodeUrlBraces("https://t.example/p?who={{prenom}}")).toBe("https://t.example/p?who=%7B%7Bprenom%7D%7D");
  });
});
