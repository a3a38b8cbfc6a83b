import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { signedIn } from "./shops-helpers.ts";

/** Issue 16, item 4: /admin/sessions shows an approximate place — time zone and network, never the address (ADR 0028). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: "true" } });
});
afterAll(async () => {
  await t.close();
});

type Listed = { isCurrent: boolean; place: string | null } & Record<string, unknown>;

describe("approximate place of a session", () => {
  it("is recorded by the first heartbeat (time zone, network) and shown in French", async () => {
    const { client } = await signedIn(t);
    const beat = (zone: string, ip: string) =>
      client.request("/api/accounts/heartbeat", { method: "POST", headers: { "x-time-zone": zone, "x-forwarded-for": ip } });
    expect((await beat("Europe/Paris", "203.0.113.42")).status).toBe(204);
    // Later beats change nothing: the place is where the session was opened.
    expect((await beat("America/New_York", "198.51.100.7")).status).toBe(204);
    const res = await client.request("/api/admin/sessions");
    const body = await res.json();
    const mine = (body.sessions as Listed[]).find((s) => s.isCurrent);
    expect(mine?.place).toBe("France · réseau 203.0.113.0/24");
    // The address itself is never sent, nor kept beyond its network.
    expect(JSON.stringify(body)).not.toContain("203.0.113.42");
    expect(mine).not.toHaveProperty("ip");
  });

  it("a time zone that is not one is ignored", async () => {
    const { client } = await signedIn(t);
    await client.request("/api/accounts/heartbeat", {
      method: "POST",
      headers: { "x-time-zone": "<script>alert(1)</script>", "x-forwarded-for": "10.1.2.3" },
    });
    const mine = ((await (await client.request("/api/admin/sessions")).json()).sessions as Listed[]).find((s) => s.isCurrent);
    expect(mine?.place).toBe("Réseau local");
  });
});
