import { hashPassword as betterAuthHash, verifyPassword as betterAuthVerify } from "@better-auth/utils/password";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.ts";

// Accounts made before Node's scrypt replaced better-auth's own keep signing in, and the reverse (a way back).
describe("password hash: Node's scrypt, better-auth's format", () => {
  it("verifies a hash better-auth made, and better-auth verifies ours", async () => {
    const theirs = await betterAuthHash("Crème brûlée 2026");
    expect(await verifyPassword({ hash: theirs, password: "Crème brûlée 2026" })).toBe(true);
    expect(await verifyPassword({ hash: theirs, password: "creme brulee 2026" })).toBe(false);
    const ours = await hashPassword("Crème brûlée 2026");
    expect(ours).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await betterAuthVerify(ours, "Crème brûlée 2026")).toBe(true);
    expect(await betterAuthVerify(ours, "Crème brûlée 2025")).toBe(false);
  });

  it("normalises Unicode as better-auth does (NFKC), and refuses a malformed hash without throwing", async () => {
    const composed = await hashPassword("café");
    expect(await verifyPassword({ hash: composed, password: "cafe\u0301" })).toBe(true);
    expect(await verifyPassword({ hash: "nothing-here", password: "café" })).toBe(false);
    expect(await verifyPassword({ hash: "abcd:zz", password: "café" })).toBe(false);
  });
});
