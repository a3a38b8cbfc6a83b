import { describe, expect, it } from "vitest";
import { creditVisitSchema } from "../schemas/cards.ts";
import {
  formatPersonalCode,
  generatePersonalCode,
  PERSONAL_CODE_ALPHABET,
  parsePersonalCode,
} from "./personal-code.ts";

describe("personal codes (« Ma carte client »)", () => {
  it("are 8 characters of the alphabet without look-alikes, drawn evenly", () => {
    const seen = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const code = generatePersonalCode();
      expect(code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
      for (const ch of code) seen.set(ch, (seen.get(ch) ?? 0) + 1);
    }
    expect(seen.size).toBe(PERSONAL_CODE_ALPHABET.length);
    for (const ch of "01ILO") expect(seen.has(ch)).toBe(false);
    // 16 000 characters over 31: about 516 each; rejection sampling keeps every one within a wide margin.
    for (const n of seen.values()) expect(n).toBeGreaterThan(400);
  });

  it("skips the bytes that would bias the draw", () => {
    const bytes = [255, 250, 248, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    expect(generatePersonalCode(() => Uint8Array.from(bytes))).toBe("ABCDEFGH");
  });

  it("reads what staff type or scan, and refuses anything else", () => {
    expect(parsePersonalCode(" abcd-ef23 ")).toBe("ABCDEF23");
    expect(parsePersonalCode("FIDELE-C:ABCDEF23")).toBe("ABCDEF23");
    expect(parsePersonalCode("fidele-c:abcd ef23")).toBe("ABCDEF23");
    expect(parsePersonalCode("ABCDEF2")).toBeNull();
    expect(parsePersonalCode("ABCDEF2O")).toBeNull();
    expect(parsePersonalCode("FIDELE-R:ABCDEF")).toBeNull();
    expect(formatPersonalCode("ABCDEF23")).toBe("ABCD-EF23");
  });

  it("the counter's request takes a code or an e-mail, in French when neither is right", () => {
    const key = "0123456789abcdef";
    expect(creditVisitSchema.parse({ code: "abcd-ef23", idempotencyKey: key })).toMatchObject({
      code: "ABCDEF23",
      email: null,
    });
    expect(creditVisitSchema.parse({ email: "A@B.FR", idempotencyKey: key })).toMatchObject({
      code: null,
      email: "a@b.fr",
    });
    const none = creditVisitSchema.safeParse({ code: "", email: "", idempotencyKey: key });
    expect(none.success).toBe(false);
    expect(none.error?.issues[0]?.message).toBe("Saisissez le code client (ou l'e-mail d'un client de la boutique).");
    const bad = creditVisitSchema.safeParse({ code: "1234", idempotencyKey: key });
    expect(bad.error?.issues[0]?.message).toMatch(/Code client invalide/);
  });
});
