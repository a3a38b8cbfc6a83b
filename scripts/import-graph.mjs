// The import graph of the project's TypeScript, read without a compiler: each file's imports (static, `import type`,
// `export … from`, dynamic `import()`) and its exported names. scripts/check-imports.mjs builds its two checks on it
// (no import cycle in src/, no exported name that nothing uses). The code is formatted by Biome, so an import or an
// export starts its line; comments and the text inside strings are blanked first so that neither can look like one.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");

/** Files under `dir` (relative to the root) whose name ends like `pattern`, skipping node_modules. */
export function listFiles(dir, pattern = /\.(ts|tsx|mts|mjs)$/) {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      if (name === "node_modules") continue;
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (pattern.test(name)) out.push(full);
    }
  };
  walk(path.join(root, dir));
  return out;
}

export const rel = (file) => path.relative(root, file).split(path.sep).join("/");

/**
 * Two copies of `text` the same length, line for line: `code` without comments and without the text of template
 * literals (their `${…}` kept), `bare` also without the text of quoted strings (only identifiers and punctuation).
 */
function blank(text) {
  const code = text.split("");
  const bare = text.split("");
  const wipe = (from, to, both) => {
    for (let k = from; k < to; k++) {
      if (text[k] === "\n") continue;
      bare[k] = " ";
      if (both) code[k] = " ";
    }
  };
  const templateDepth = []; // brace depth at which each open `${` returns into its template
  let braces = 0;
  let lastSignificant = "";
  let i = 0;
  const regexMayStart = () => lastSignificant === "" || /[(,=:[!&|?{};+\-*%<>~^]/.test(lastSignificant);
  const readTemplate = (start) => {
    // From just after "`" or "}" (closing a `${`): blank the text up to "`" or the next "${".
    let k = start;
    while (k < text.length) {
      if (text[k] === "\\") k += 2;
      else if (text[k] === "`") {
        wipe(start, k, true);
        return k + 1;
      } else if (text[k] === "$" && text[k + 1] === "{") {
        wipe(start, k, true);
        templateDepth.push(braces);
        braces++;
        return k + 2;
      } else k++;
    }
    wipe(start, k, true);
    return k;
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      wipe(i, stop, true);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      wipe(i, stop, true);
      i = stop;
    } else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < text.length && text[k] !== c && text[k] !== "\n") k += text[k] === "\\" ? 2 : 1;
      wipe(i + 1, k, false);
      i = k + 1;
      lastSignificant = c;
    } else if (c === "`") {
      i = readTemplate(i + 1);
      lastSignificant = "`";
    } else if (c === "/" && regexMayStart()) {
      let k = i + 1;
      let inClass = false;
      while (k < text.length && text[k] !== "\n") {
        if (text[k] === "\\") k++;
        else if (text[k] === "[") inClass = true;
        else if (text[k] === "]") inClass = false;
        else if (text[k] === "/" && !inClass) break;
        k++;
      }
      wipe(i + 1, k, true);
      i = k + 1;
      lastSignificant = "/";
    } else {
      if (c === "{") braces++;
      else if (c === "}") {
        braces--;
        if (templateDepth.length && templateDepth.at(-1) === braces) {
          templateDepth.pop();
          i = readTemplate(i + 1);
          lastSignificant = "`";
          continue;
        }
      }
      if (/\S/.test(c)) {
        // A keyword before "/" (return /x/) starts a regex; an identifier before it divides.
        if (/[\w$]/.test(c)) {
          let k = i;
          while (k < text.length && /[\w$]/.test(text[k])) k++;
          const word = text.slice(i, k);
          lastSignificant = /^(return|typeof|case|do|else|in|of|yield|await|void)$/.test(word) ? "(" : "a";
          i = k;
          continue;
        }
        lastSignificant = c;
      }
      i++;
    }
  }
  return { code: code.join(""), bare: bare.join("") };
}

/** `a, type b as c, default as d` → [{ imported: "a", local: "a" }, …] */
function parseNames(list) {
  return list
    .split(",")
    .map((s) => s.trim().replace(/^type\s+/, ""))
    .filter(Boolean)
    .map((s) => {
      const [imported, local] = s.split(/\s+as\s+/);
      return { imported: imported.trim(), local: (local ?? imported).trim() };
    });
}

const lineOf = (text, index) => text.slice(0, index).split("\n").length;

/**
 * One file's imports and exports.
 * imports: { spec, typeOnly, names: [{imported, local}] | null (all: a namespace, or a dynamic import used whole),
 *            reexport, line, dynamic }
 * exports: { name, local, line, from? } — `from` for `export … from` (spec), `name: "*"` for `export * from`.
 */
export function parseFile(file) {
  const text = readFileSync(file, "utf8");
  const { code, bare } = blank(text);
  const imports = [];
  const exports = [];
  // import … from "x"; import "x"
  for (const m of code.matchAll(/^[ \t]*import\s+(type\s+)?([^;"'()=:]*?)\s*from\s*["']([^"']+)["']/gm)) {
    const clause = m[2].trim();
    const names = [];
    let all = false;
    const braces = clause.match(/\{([^}]*)\}/);
    if (braces) names.push(...parseNames(braces[1]));
    const outside = clause
      .replace(/\{[^}]*\}/, "")
      .replace(/,/g, " ")
      .trim();
    const ns = outside.match(/\*\s+as\s+([\w$]+)/);
    if (ns) {
      // A namespace: the names it reads (ns.name); used whole (passed on), it takes everything.
      const local = ns[1];
      const reads = [...bare.matchAll(new RegExp(`(?<![\\w$.])${local.replace("$", "\\$")}\\.([\\w$]+)`, "g"))];
      const whole = new RegExp(`(?<![\\w$.])${local.replace("$", "\\$")}(?![\\w$.])`, "g");
      const wholeUses = [...bare.matchAll(whole)].length - 1; // minus the import itself
      if (wholeUses > 0) all = true;
      else names.push(...reads.map((r) => ({ imported: r[1], local: r[1] })));
    } else if (outside) names.push({ imported: "default", local: outside.split(/\s+/)[0] });
    imports.push({
      spec: m[3],
      typeOnly: Boolean(m[1]),
      names: all ? null : names,
      reexport: false,
      line: lineOf(text, m.index),
      dynamic: false,
    });
  }
  for (const m of code.matchAll(/^[ \t]*import\s*["']([^"']+)["']/gm))
    imports.push({
      spec: m[1],
      typeOnly: false,
      names: [],
      reexport: false,
      line: lineOf(text, m.index),
      dynamic: false,
    });
  // export { a as b } from "x"; export * from "x"; export * as ns from "x"
  for (const m of code.matchAll(
    /^[ \t]*export\s+(type\s+)?(\*(?:\s+as\s+([\w$]+))?|\{([^}]*)\})\s*from\s*["']([^"']+)["']/gm,
  )) {
    const spec = m[5];
    const line = lineOf(text, m.index);
    if (m[4] !== undefined) {
      const names = parseNames(m[4]);
      imports.push({ spec, typeOnly: Boolean(m[1]), names: [], reexport: true, line, dynamic: false });
      for (const n of names) exports.push({ name: n.local, local: n.imported, line, from: spec });
    } else if (m[3]) {
      imports.push({ spec, typeOnly: Boolean(m[1]), names: null, reexport: true, line, dynamic: false });
      exports.push({ name: m[3], local: m[3], line });
    } else {
      imports.push({ spec, typeOnly: Boolean(m[1]), names: [], reexport: true, line, dynamic: false });
      exports.push({ name: "*", local: "*", line, from: spec });
    }
  }
  // import("x"): `.then((m) => … m.name …)` reads those names, `const { a, b } = await import("x")` those; else all.
  for (const m of code.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) {
    const before = code.slice(Math.max(0, m.index - 200), m.index);
    const after = code.slice(m.index + m[0].length, m.index + m[0].length + 300);
    let names = null;
    const destructured = before.match(/\{([^{}]*)\}\s*=\s*(?:await\s+)?$/);
    const then = after.match(/^\s*\.then\(\s*\(?\s*([\w$]+)\s*\)?\s*=>/);
    if (destructured) names = parseNames(destructured[1].replace(/:\s*[\w$]+/g, ""));
    else if (then) {
      const body = after.slice(then[0].length).split("\n")[0];
      names = [...body.matchAll(new RegExp(`(?<![\\w$.])${then[1]}\\.([\\w$]+)`, "g"))].map((r) => ({
        imported: r[1],
        local: r[1],
      }));
    }
    imports.push({ spec: m[1], typeOnly: false, names, reexport: false, line: lineOf(text, m.index), dynamic: true });
  }
  // Declarations: export (default|const|function|class|type|interface|enum) name
  for (const m of code.matchAll(
    /^[ \t]*export\s+(?:declare\s+)?(?:(default)\b|(?:async\s+)?(?:const|let|var|function\*?|abstract\s+class|class|type|interface|enum|namespace)\s+([\w$]+))/gm,
  )) {
    const name = m[1] ? "default" : m[2];
    if (exports.some((e) => e.name === name && !e.from)) continue; // overloads, declaration merging
    exports.push({ name, local: name, line: lineOf(text, m.index) });
  }
  // export { a, b as c };
  for (const m of code.matchAll(/^[ \t]*export\s+(?:type\s+)?\{([^}]*)\}\s*;?\s*$/gm)) {
    for (const n of parseNames(m[1])) exports.push({ name: n.local, local: n.imported, line: lineOf(text, m.index) });
  }
  return { file, text, code, bare, imports, exports };
}

/** The file an import of `spec` from `file` loads, or null for a package. */
export function resolveImport(file, spec) {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(file), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}
