import { describe, expect, it } from "vitest";
import { rewardConditionsFr } from "./reward-conditions.ts";

describe("reward conditions in French", () => {
  const base = {
    cost: 10,
    stock: null,
    perCustomerLimit: null,
    kind: "repeatable" as const,
    validFrom: null,
    validUntil: null,
  };

  it("words the cost, the limit, the stock and the dates", () => {
    expect(rewardConditionsFr(base, "stamps")).toEqual(["Coûte 10 tampons."]);
    expect(
      rewardConditionsFr(
        { ...base, cost: 1, kind: "ladder", stock: 1, validFrom: "2030-03-01", validUntil: "2030-03-31" },
        "points",
      ),
    ).toEqual([
      "Coûte 1 point.",
      "Une seule fois par client.",
      "Encore 1 disponible.",
      "Valable du 1 mars 2030 au 31 mars 2030.",
    ]);
    expect(rewardConditionsFr({ ...base, perCustomerLimit: 2, stock: 0, validUntil: "2030-12-24" }, "points")).toEqual([
      "Coûte 10 points.",
      "Au plus 2 fois par client.",
      "Épuisée.",
      "Valable jusqu'au 24 décembre 2030.",
    ]);
  });
});
