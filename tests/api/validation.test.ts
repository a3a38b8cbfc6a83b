import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../setup/api.ts";

/** Bad input is a 400 naming the fields, in French; never a 500 (issue 2, errors). */
let t: TestApp;
let signedIn: ReturnType<TestApp["client"]>;
beforeAll(async () => {
  t = await createTestApp();
  const user = await t.createUser();
  signedIn = t.client();
  await signedIn.signIn(user.email, user.password);
});
afterAll(async () => {
  await t?.close();
});

describe("invalid input", () => {
  it("PUT /api/accounts/profile with bad data is a 400 naming each bad field", async () => {
    const res = await signedIn.request("/api/accounts/profile", {
      method: "PUT",
      json: {
        firstName: "",
        lastName: "x".repeat(61),
        birthday: "2023-02-30",
        postalCode: "750",
        consents: { email: "oui" },
      },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("VALIDATION");
    expect(body.fields).toMatchObject({
      firstName: "Saisissez votre prénom.",
      lastName: "Votre nom doit contenir au plus 60 caractères.",
      birthday: "Date de naissance invalide.",
      postalCode: "Le code postal doit contenir 5 chiffres.",
    });
    expect(Object.keys(body.fields)).toEqual(
      expect.arrayContaining(["consents.email", "consents.sms", "consents.push"]),
    );
    expect(body.message).toBe("Saisissez votre prénom.");
  });

  it("a valid profile is saved (the same endpoint, so the 400 above is about the data)", async () => {
    const res = await signedIn.request("/api/accounts/profile", {
      method: "PUT",
      json: {
        firstName: "Inès",
        lastName: "Moreau",
        birthday: "1991-04-12",
        postalCode: "69003",
        consents: { email: true, sms: false, push: false },
      },
    });
    expect(res.status).toBe(200);
    const { me } = await (await signedIn.request("/api/accounts/me")).json();
    expect(me.profile).toMatchObject({
      firstName: "Inès",
      lastName: "Moreau",
      birthday: "1991-04-12",
      postalCode: "69003",
    });
  });

  it("malformed JSON is a 400 with a French message", async () => {
    for (const [path, method] of [
      ["/api/accounts/profile", "PUT"],
      ["/api/accounts/sign-up", "POST"],
    ] as const) {
      const res = await signedIn.request(path, { method, body: '{"firstName": "Inès",' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: "VALIDATION", message: "La requête est mal formée (JSON invalide)." });
    }
  });

  it("malformed JSON to an auth endpoint is a 400 with a French message, not a 500", async () => {
    const res = await t.client().request("/api/auth/sign-in/email", { body: "{nope" });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toMatch(/[éèà]|Vérifiez/);
    expect(JSON.stringify(body)).not.toMatch(/stack|SyntaxError|at /);
  });

  it("a body that is not JSON at all is a French 415", async () => {
    const res = await t.client().request("/api/accounts/sign-up", {
      body: "email=a@b.fr",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    const body = await res.json();
    expect(body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(body.message).toContain("JSON");
  });

  it("a password outside 8–128 characters is refused at sign-up", async () => {
    for (const password of ["court", "x".repeat(129)]) {
      const res = await t
        .client()
        .request("/api/accounts/sign-up", { json: { email: "nouveau@test.fidele.local", password } });
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).fields)).toEqual(["password"]);
    }
  });
});
