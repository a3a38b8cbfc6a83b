import { describe, expect, it } from "vitest";
import { importCodeKey, randomSecret, rotatingToken } from "./scan-code.ts";
import { displayShortCode, normaliseShortCode, SHORT_CODE_ALPHABET, shortCodeOf } from "./short-code.ts";

describe("short codes", () => {
  it("are six characters without look-alikes, stable for a token and different from step to step", async () => {
    const key = await importCodeKey(randomSecret());
    const codes = new Set<string>();
    for (let step = 1000; step < 1200; step++) {
      const token = await rotatingToken(key, "shop-uid-1234", step);
      const code = shortCodeOf(token);
      expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/);
      expect(shortCodeOf(token)).toBe(code);
      codes.add(code as string);
    }
    expect(codes.size).toBeGreaterThan(195);
    expect(SHORT_CODE_ALPHABET).not.toMatch(/[01ILO]/);
  });

  it("reads what people type and refuses the rest", () => {
    expect(normaliseShortCode(" k7m-4px ")).toBe("K7M4PX");
    expect(normaliseShortCode("K7M 4PX")).toBe("K7M4PX");
    expect(normaliseShortCode("K7M4P")).toBeNull();
    expect(normaliseShortCode("K7M4P0")).toBeNull();
    expect(shortCodeOf("not-a-token")).toBeNull();
    expect(displayShortCode("K7M4PX")).toBe("K7M 4PX");
  });
});
