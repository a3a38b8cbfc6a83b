import { describe, expect, it } from "vitest";
import { customerCodeIn, refundTakesBack } from "./till-sales.ts";

describe("a customer's code in a sale", () => {
  it("is read from a comment, typed with a dash, spaces or in lower case, or from the QR's text", () => {
    expect(customerCodeIn(["Client ABCD-EF23 merci"])).toBe("ABCDEF23");
    expect(customerCodeIn(["abcd ef23"])).toBe("ABCDEF23");
    expect(customerCodeIn(["FIDELE-C:ABCDEF23"])).toBe("ABCDEF23");
  });

  it("takes the first comment that holds one, and ignores words of the wrong alphabet or length", () => {
    expect(customerCodeIn([null, "Croissant", "code WXYZ-2345", "ABCD-EF23"])).toBe("WXYZ2345");
    // 0, O, 1, I and L are not in the alphabet; 9 characters are not a code.
    expect(customerCodeIn(["ABCD-EF10", "ABCDEFGHJ", "Pain au chocolat"])).toBeNull();
  });

  it("does not take a word that merely has a code's shape inside a longer comment", () => {
    expect(customerCodeIn(["Baguette tradition", "Pain de campagne"])).toBeNull();
    expect(customerCodeIn(["Baguette"])).toBe("BAGUETTE");
  });
});

describe("points a refund takes back", () => {
  const sale = { salePoints: 24, saleAmountCents: 2400, alreadyTakenBack: 0, balance: 100 };

  it("takes all of a whole refund, and the refunded share of a partial one", () => {
    expect(refundTakesBack({ ...sale, refundAmountCents: -2400 })).toBe(24);
    expect(refundTakesBack({ ...sale, refundAmountCents: -600 })).toBe(6);
  });

  it("never takes more than the sale gave, over several refunds", () => {
    expect(refundTakesBack({ ...sale, refundAmountCents: -2400, alreadyTakenBack: 18 })).toBe(6);
    expect(refundTakesBack({ ...sale, refundAmountCents: -5000 })).toBe(24);
  });

  it("never takes the card below zero, nor anything from a sale that gave nothing", () => {
    expect(refundTakesBack({ ...sale, refundAmountCents: -2400, balance: 5 })).toBe(5);
    expect(refundTakesBack({ ...sale, salePoints: 0, refundAmountCents: -2400 })).toBe(0);
  });
});
