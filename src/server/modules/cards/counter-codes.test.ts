import { describe, expect, it } from "vitest";
import { importCodeKey, randomSecret, rotatingToken, timeStep } from "../../../domain/loyalty/scan-code.ts";
import { rotatingTokens } from "./counter-codes.service.ts";

describe("rotatingTokens (node:crypto)", () => {
  it("gives the domain's Web Crypto tokens, step by step, for several keys", async () => {
    for (let k = 0; k < 5; k++) {
      const secret = randomSecret();
      const scanUid = randomSecret(12);
      const first = timeStep(Date.now()) + k * 1000;
      const key = await importCodeKey(secret);
      const expected = await Promise.all(Array.from({ length: 20 }, (_, i) => rotatingToken(key, scanUid, first + i)));
      expect(rotatingTokens(secret, scanUid, first, 20)).toEqual(expected);
    }
  });
});
