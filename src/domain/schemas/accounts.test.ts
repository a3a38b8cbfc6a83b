import { describe, expect, it } from "vitest";
import {
  birthdaySchema,
  emailSchema,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordSchema,
  safeRedirect,
  signUpSchema,
} from "./accounts.ts";
import { profileSchema } from "./profile.ts";

describe("safeRedirect", () => {
  it.each([
    ["/", "/"],
    ["/cartes-de-fidelite", "/cartes-de-fidelite"],
    ["/boutique/abc?tab=2#x", "/boutique/abc?tab=2#x"],
    ["/admin/../profil", "/profil"],
  ])("follows the path of this site %s", (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });

  it.each([
    ["protocol-relative", "//evil.example/x"],
    ["backslash", "/\\evil.example"],
    ["absolute http", "https://evil.example/"],
    ["javascript", "javascript:alert(1)"],
    ["relative", "profil"],
    ["tab inside", "/\t/evil.example"],
    ["newline inside", "/\n/evil.example"],
    ["empty", ""],
  ])("refuses a %s target", (_label, target) => {
    expect(safeRedirect(target)).toBe("/");
    expect(safeRedirect(target, "/login")).toBe("/login");
  });

  it("falls back when there is no target", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/profil")).toBe("/profil");
  });
});

describe("emailSchema", () => {
  it("trims and lower-cases", () => {
    expect(emailSchema.parse("  Camille.Martin@Exemple.FR ")).toBe("camille.martin@exemple.fr");
  });

  it("refuses a bad address with a French message", () => {
    const result = emailSchema.safeParse("pas-une-adresse");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Cette adresse e-mail n'est pas valide.");
  });

  it("asks for an address when empty", () => {
    expect(emailSchema.safeParse("   ").error?.issues[0]?.message).toBe("Saisissez votre adresse e-mail.");
    expect(emailSchema.safeParse(undefined).error?.issues[0]?.message).toBe("Saisissez votre adresse e-mail.");
  });

  it("refuses an address longer than 254 characters", () => {
    const long = `${"a".repeat(250)}@x.fr`;
    expect(emailSchema.safeParse(long).error?.issues[0]?.message).toBe("Cette adresse e-mail est trop longue.");
  });
});

describe("passwordSchema", () => {
  it("accepts 8 to 128 characters", () => {
    expect(PASSWORD_MIN).toBe(8);
    expect(PASSWORD_MAX).toBe(128);
    expect(passwordSchema.safeParse("a".repeat(8)).success).toBe(true);
    expect(passwordSchema.safeParse("a".repeat(128)).success).toBe(true);
  });

  it("refuses 7 and 129 characters, in French", () => {
    expect(passwordSchema.safeParse("a".repeat(7)).error?.issues[0]?.message).toBe(
      "Le mot de passe doit contenir au moins 8 caractères.",
    );
    expect(passwordSchema.safeParse("a".repeat(129)).error?.issues[0]?.message).toBe(
      "Le mot de passe doit contenir au plus 128 caractères.",
    );
  });
});

describe("signUpSchema", () => {
  it("keeps only e-mail and password (no role, no emailVerified)", () => {
    const parsed = signUpSchema.parse({ email: "A@B.fr", password: "12345678", role: "admin", emailVerified: true });
    expect(parsed).toEqual({ email: "a@b.fr", password: "12345678" });
  });
});

describe("birthdaySchema", () => {
  it("accepts a real past date", () => {
    expect(birthdaySchema.safeParse("1990-02-28").success).toBe(true);
    expect(birthdaySchema.safeParse("2000-02-29").success).toBe(true);
  });

  it.each(["2023-02-30", "1990-13-01", "01/02/1990", "1899-12-31", "2999-01-01"])("refuses %s", (value) => {
    expect(birthdaySchema.safeParse(value).error?.issues[0]?.message).toBe("Date de naissance invalide.");
  });
});

describe("profileSchema", () => {
  const valid = {
    firstName: " Camille ",
    lastName: "Martin",
    consents: { email: true, sms: false, push: false },
  };

  it("trims names and turns blank optional fields into null", () => {
    expect(profileSchema.parse({ ...valid, birthday: "", postalCode: "" })).toEqual({
      firstName: "Camille",
      lastName: "Martin",
      birthday: null,
      postalCode: null,
      consents: { email: true, sms: false, push: false },
    });
  });

  it("keeps a birthday and a postal code", () => {
    const parsed = profileSchema.parse({ ...valid, birthday: "1990-05-17", postalCode: " 75011 " });
    expect(parsed.birthday).toBe("1990-05-17");
    expect(parsed.postalCode).toBe("75011");
  });

  it("names every bad field with a French message", () => {
    const result = profileSchema.safeParse({
      firstName: "",
      lastName: "x".repeat(61),
      birthday: "2999-01-01",
      postalCode: "7501",
      consents: { email: "oui", sms: false },
    });
    expect(result.success).toBe(false);
    const byPath = Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
    expect(byPath).toMatchObject({
      firstName: "Saisissez votre prénom.",
      lastName: "Votre nom doit contenir au plus 60 caractères.",
      birthday: "Date de naissance invalide.",
      postalCode: "Le code postal doit contenir 5 chiffres.",
    });
    expect(Object.keys(byPath)).toEqual(expect.arrayContaining(["consents.email", "consents.push"]));
  });

  it("requires an explicit choice per consent channel (no implicit yes)", () => {
    expect(profileSchema.safeParse({ firstName: "A", lastName: "B" }).success).toBe(false);
  });
});
