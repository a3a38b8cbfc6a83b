import { describe, expect, it } from "vitest";
import { adjustmentSchema, customersQuerySchema, scanRequestSchema, scansQuerySchema } from "./cards.ts";

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe("scan requests", () => {
  it("need a shop code, a token or a poster signature, and an idempotency key", () => {
    const ok = scanRequestSchema.parse({ scanUid: "Ab12Cd34Ef56Gh78", token: "abc.def", idempotencyKey: "0f8c2c9e-1111-4c4c-9d9d-123456789abc" });
    expect(ok).toMatchObject({ poster: null, deviceId: null });
    expect(firstMessage(scanRequestSchema.safeParse({ scanUid: "Ab12Cd34Ef56Gh78", idempotencyKey: "abcdefgh" }))).toBe(
      "Ce code est incomplet : scannez le code affiché au comptoir.",
    );
    expect(firstMessage(scanRequestSchema.safeParse({ scanUid: "../etc", token: "x", idempotencyKey: "abcdefgh" }))).toBe(
      "Ce code ne correspond à aucune boutique Fidèle.",
    );
    expect(firstMessage(scanRequestSchema.safeParse({ scanUid: "Ab12Cd34Ef56Gh78", token: "x" }))).toBe("Clé de requête manquante.");
  });
});

describe("adjustments", () => {
  it("need a non-zero whole delta and a reason", () => {
    const base = { cardId: "0f8c2c9e-1111-4c4c-9d9d-123456789abc", reason: "Erreur", idempotencyKey: "abcdefgh" };
    expect(adjustmentSchema.parse({ ...base, delta: "-3" }).delta).toBe(-3);
    expect(firstMessage(adjustmentSchema.safeParse({ ...base, delta: 0 }))).toBe("La correction ne peut pas être nulle.");
    expect(firstMessage(adjustmentSchema.safeParse({ ...base, delta: 1.5 }))).toBe("Nombre entier attendu.");
    expect(firstMessage(adjustmentSchema.safeParse({ ...base, delta: 2, reason: " " }))).toBe("Motif : au moins 3 caractères.");
  });
});

describe("back-office queries", () => {
  it("default and bound the lists", () => {
    expect(customersQuerySchema.parse({})).toEqual({ sort: "lastVisit", order: "desc", limit: 50, offset: 0 });
    expect(customersQuerySchema.safeParse({ sort: "email" }).success).toBe(false);
    expect(scansQuerySchema.parse({ flagged: "1" }).flagged).toBe(true);
    expect(scansQuerySchema.parse({}).flagged).toBe(false);
    expect(firstMessage(scansQuerySchema.safeParse({ from: "2026-03-02", to: "2026-03-01" }))).toBe("La fin doit suivre le début.");
  });
});
