import { describe, expect, it } from "vitest";
import { addMonths, monthsBetween } from "./retention.ts";

describe("months of the cohort grid", () => {
  it("moves by whole months across years", () => {
    expect(addMonths("2026-11-26", 0)).toBe("2026-11-01");
    expect(addMonths("2026-11-26", 2)).toBe("2027-01-01");
    expect(addMonths("2026-01-31", -1)).toBe("2025-12-01");
    expect(addMonths("2026-03-01", -27)).toBe("2023-12-01");
  });
  it("counts the months between two dates", () => {
    expect(monthsBetween("2025-12-01", "2026-02-15")).toBe(2);
    expect(monthsBetween("2026-02-01", "2026-02-28")).toBe(0);
  });
});
