import { Marked, type Tokens } from "marked";
import { z } from "zod";

/**
 * Markdown → HTML for the articles in content/. The files are ours, but the HTML
 * lands in the page with dangerouslySetInnerHTML, so it is made safe here: raw HTML
 * in the Markdown is escaped (shown as text, never passed through), and a link or an
 * image keeps its address only when it is a plain web, mail or in-app address
 * (no `javascript:`, `data:` …).
 */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

/** In-app paths ("/offre", "#section") and http(s)/mailto/tel addresses. */
function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^\/(?![/\\])/.test(trimmed) || trimmed.startsWith("#")) return trimmed;
  try {
    const url = new URL(trimmed);
    return ["http:", "https:", "mailto:", "tel:"].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      if (!safe) return inner;
      const external = /^(https?:)?\/\//.test(safe);
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
      const relAttr = external ? ' rel="noopener noreferrer" target="_blank"' : "";
      return `<a href="${escapeHtml(safe)}"${titleAttr}${relAttr}>${inner}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      // The CSP allows images from this site only: keep in-app images, show the alt text otherwise.
      const safe = safeHref(href);
      if (!safe?.startsWith("/")) return escapeHtml(text);
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
      return `<img src="${escapeHtml(safe)}" alt="${escapeHtml(text)}"${titleAttr} loading="lazy">`;
    },
  },
});

export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

/** The small front matter every article starts with. */
const frontMatterSchema = z.object({
  title: z.string().trim().min(1),
  date: z.iso.date(),
  description: z.string().trim().min(1),
});
export type FrontMatter = z.infer<typeof frontMatterSchema>;

/**
 * Splits `---\nkey: value\n---\nbody` into its fields and body. Values are plain
 * text on one line (no YAML beyond that); a bad header is an error with the file's
 * problem in it, so a broken article fails loudly rather than showing half.
 */
export function parseFrontMatter(source: string): { meta: FrontMatter; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error("missing front matter (--- title/date/description ---)");
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    if (colon < 1) throw new Error(`bad front matter line: ${line}`);
    const key = line.slice(0, colon).trim();
    let value = line.slice(colon + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    fields[key] = value;
  }
  const parsed = frontMatterSchema.safeParse(fields);
  if (!parsed.success) throw new Error(`bad front matter: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  return { meta: parsed.data, body: match[2] ?? "" };
}
