import { describe, expect, it } from "vitest";
import { buildPushPayload, PUSH_PAYLOAD_MAX_BYTES } from "./payload.ts";
import { composeSchema, segmentLabelFr } from "./segments.ts";

describe("push payload", () => {
  it("keeps a long text under 3 kB, shortened with an ellipsis", () => {
    const json = buildPushPayload({ id: "m1", title: "Promo", body: "é".repeat(5000) });
    expect(new TextEncoder().encode(json).length).toBeLessThanOrEqual(PUSH_PAYLOAD_MAX_BYTES);
    const parsed = JSON.parse(json);
    expect(parsed.body.endsWith("…")).toBe(true);
    expect(parsed).toMatchObject({ id: "m1", icon: "/pwa-192x192.png", url: "/messages/m1" });
  });
  it("never carries a data URL image", () => {
    expect(
      JSON.parse(buildPushPayload({ title: "a", body: "b", image: "data:image/png;base64,AAA" })).image,
    ).toBeUndefined();
  });
});

describe("composer input", () => {
  it("refuses a segment without its days, in French", () => {
    const r = composeSchema.safeParse({ title: "Bonjour", body: "Texte", segment: { kind: "not_seen_for" } });
    expect(r.success).toBe(false);
  });
  it("labels segments in French with plurals", () => {
    expect(segmentLabelFr({ kind: "not_seen_for", days: 30 })).toBe("Pas venus depuis 30 jours");
    expect(segmentLabelFr({ kind: "visited_within", days: 1 })).toBe("Venus il y a moins de 1 jour");
  });
});
