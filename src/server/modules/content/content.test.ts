import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/setup/test-db.ts";
import { createApp } from "../../app.ts";
import { createUser } from "../../db/factories.ts";
import { profiles } from "../../db/schema/index.ts";
import { parseEnv } from "../../env.ts";
import type { Deps } from "../../lib/context.ts";
import { createLogger } from "../../lib/logger.ts";
import { createDeps } from "../../server.ts";
import { getArticle, listArticles } from "./content.service.ts";
import { parseFrontMatter, renderMarkdown } from "./markdown.ts";

const BASE = "http://127.0.0.1:4999";
let deps: Deps;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "fidele-content-"));
  const env = parseEnv({
    NODE_ENV: "test",
    APP_URL: BASE,
    DATA_DIR: dataDir,
    SEED_DEMO: "0",
    LEGAL_COMPANY: "Fidèle SAS, capital 1 000 €, RCS Lyon 123 456 789",
    LEGAL_ADDRESS: "12 rue de la République, 69002 Lyon",
    LEGAL_DIRECTOR: "Claire Dubois",
    LEGAL_HOST: "OVH SAS, 2 rue Kellermann, 59100 Roubaix",
    LEGAL_CONTACT: "contact@fidele.example",
  });
  deps = await createDeps(env, { database: await openTestDatabase(), logger: createLogger("silent") });
  app = createApp({ deps });
});
afterAll(async () => {
  await deps?.database.close();
});

async function signIn(email: string, password: string): Promise<string> {
  const res = await app.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

describe("renderMarkdown", () => {
  it("renders headings, lists, emphasis and in-app links", () => {
    const html = renderMarkdown("## Titre\n\n- un\n- **deux**\n\n[L'offre](/offre)");
    expect(html).toContain("<h2>Titre</h2>");
    expect(html).toContain("<li><strong>deux</strong></li>");
    expect(html).toContain('<a href="/offre">L&#39;offre</a>');
  });

  it("escapes raw HTML instead of passing it through", () => {
    const html = renderMarkdown('<script>alert("x")</script>\n\nTexte <img src=x onerror=alert(1)> suite');
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("drops dangerous link and image addresses but keeps their text", () => {
    const html = renderMarkdown("[clic](javascript:alert(1)) [data](data:text/html,hi) ![photo](https://evil.example/x.png)");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("data:text");
    expect(html).not.toContain("<img");
    expect(html).toContain("clic");
    expect(html).toContain("photo");
  });

  it("opens external links in a new tab without an opener", () => {
    expect(renderMarkdown("[CNIL](https://www.cnil.fr/)")).toContain(
      '<a href="https://www.cnil.fr/" rel="noopener noreferrer" target="_blank">CNIL</a>',
    );
  });
});

describe("parseFrontMatter", () => {
  it("reads title, date and description", () => {
    const { meta, body } = parseFrontMatter('---\ntitle: "Un titre : avec deux-points"\ndate: 2025-01-02\ndescription: Court.\n---\nCorps');
    expect(meta).toEqual({ title: "Un titre : avec deux-points", date: "2025-01-02", description: "Court." });
    expect(body).toBe("Corps");
  });

  it("refuses a file without front matter or with a bad date", () => {
    expect(() => parseFrontMatter("# Juste un titre")).toThrow(/front matter/);
    expect(() => parseFrontMatter("---\ntitle: T\ndate: demain\ndescription: D\n---\n")).toThrow(/date/);
  });
});

describe("articles on disk", () => {
  it("lists the repository's blog posts newest first, each with a title and description", async () => {
    const posts = await listArticles("blog");
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const post of posts) {
      expect(post.title.length).toBeGreaterThan(5);
      expect(post.description.length).toBeGreaterThan(20);
    }
    const dates = posts.map((p) => p.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("finds a presentation and renders it", async () => {
    const [first] = await listArticles("presentation");
    expect(first).toBeDefined();
    const article = await getArticle("presentation", first!.slug);
    expect(article?.html).toContain("<h2>");
  });

  it("ignores files whose name is not a slug and answers null for an unknown slug", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "fidele-md-"));
    await mkdir(path.join(dir, "blog"));
    await writeFile(path.join(dir, "blog", "Bad Name.md"), "---\ntitle: T\ndate: 2025-01-01\ndescription: D\n---\n");
    await writeFile(path.join(dir, "blog", "bon-article.md"), "---\ntitle: Bon\ndate: 2025-01-01\ndescription: Desc\n---\nTexte");
    expect((await listArticles("blog", dir)).map((a) => a.slug)).toEqual(["bon-article"]);
    expect(await getArticle("blog", "inconnu", dir)).toBeNull();
  });
});

describe("GET /api/content", () => {
  it("serves a blog post as safe HTML", async () => {
    const res = await app.request("/api/content/blog/pourquoi-la-carte-papier-ne-suffit-plus");
    expect(res.status).toBe(200);
    const { article } = (await res.json()) as { article: { title: string; html: string; date: string } };
    expect(article.title).toBe("Pourquoi la carte à tampons ne suffit plus");
    expect(article.date).toBe("2026-10-06");
    expect(article.html).toContain("<h2>");
  });

  it.each([
    "/api/content/blog/article-inexistant",
    "/api/content/blog/..%2F..%2Fpackage",
    "/api/content/blog/Majuscules",
    "/api/content/presentation/pourquoi-la-carte-papier-ne-suffit-plus",
    "/api/content/inconnu/quelque-chose",
    "/api/content/inconnu",
  ])("answers 404 in French for %s", async (url) => {
    const res = await app.request(url);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe("NOT_FOUND");
    expect(body.message).toMatch(/n'existe pas/);
  });

  it("lists the presentations", async () => {
    const res = await app.request("/api/content/presentation");
    expect(res.status).toBe(200);
    const { articles } = (await res.json()) as { articles: { slug: string }[] };
    expect(articles.map((a) => a.slug)).toContain("fidele-en-cinq-minutes");
  });

  it("serves the operator's legal notice from the environment", async () => {
    const res = await app.request("/api/content/legal");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      legal: {
        company: "Fidèle SAS, capital 1 000 €, RCS Lyon 123 456 789",
        address: "12 rue de la République, 69002 Lyon",
        director: "Claire Dubois",
        host: "OVH SAS, 2 rue Kellermann, 59100 Roubaix",
        contact: "contact@fidele.example",
        appUrl: BASE,
      },
    });
  });

  it("gives the dashboard's account facts to their owner only", async () => {
    expect((await app.request("/api/content/activity")).status).toBe(401);
    const user = await createUser(deps);
    const cookie = await signIn(user.email, user.password);
    const lastSeen = new Date("2025-04-01T08:30:00Z");
    await deps.db.update(profiles).set({ lastSeen }).where(eq(profiles.id, user.id));
    const res = await app.request("/api/content/activity", { headers: { cookie } });
    expect(res.status).toBe(200);
    const { activity } = (await res.json()) as { activity: { memberSince: string; lastSeen: string; activeSessions: number } };
    // The request itself is a sign of life: the heartbeat (SPEC §7.1) may already have moved last_seen to now.
    const seen = Date.parse(activity.lastSeen);
    expect(seen === lastSeen.getTime() || Date.now() - seen < 60_000).toBe(true);
    expect(Date.now() - Date.parse(activity.memberSince)).toBeLessThan(60_000);
    expect(activity.activeSessions).toBe(1);
  });
});
