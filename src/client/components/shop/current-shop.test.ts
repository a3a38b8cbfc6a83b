import { describe, expect, it } from "vitest";
import { pickShop } from "./current-shop.ts";

describe("the current shop", () => {
  const shops = [
    { id: "a", slug: "a", name: "A", status: "active" as const, role: "member" as const },
    { id: "b", slug: "b", name: "B", status: "active" as const, role: "owner" as const },
  ];
  it("keeps the remembered shop, else one the person manages, else the first", () => {
    expect(pickShop(shops, "a")?.id).toBe("a");
    expect(pickShop(shops, "gone")?.id).toBe("b");
    expect(pickShop(shops, null)?.id).toBe("b");
    expect(pickShop([shops[0]!], null)?.id).toBe("a");
    expect(pickShop([], "a")).toBeNull();
  });
});
