import { describe, expect, it } from "vitest";
import { readCoordinate } from "./coordinates.ts";

describe("coordinates typed in a form", () => {
  it("reads French decimals, leaves empty as null and bad text for the schema to refuse", () => {
    expect(readCoordinate("45,764043")).toBe(45.764043);
    expect(readCoordinate(" 4.8357 ")).toBe(4.8357);
    expect(readCoordinate("")).toBeNull();
    expect(readCoordinate(null)).toBeNull();
    expect(readCoordinate("nord")).toBe("nord");
  });
});
