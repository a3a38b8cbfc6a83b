// Imported first by every script npm runs: on a Node too old for Fidèle, one line saying what to do, exit 1 —
// never a loader error further on. `npm install` puts the pinned Node (package.json, optionalDependencies
// node-<platform>) in node_modules/.bin, which npm puts first on its scripts' PATH (docs/decisions/0037).
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `Fidèle demande Node 22.12 ou plus récent (ici ${process.version}) : lancez-le par npm (npm install, puis npm start ou npm test), qui prend le Node 24 installé dans node_modules, ou installez Node 24. / Fidèle needs Node 22.12 or newer (this is ${process.version}): run it through npm (npm install, then npm start or npm test), which uses the Node 24 in node_modules, or install Node 24.`,
  );
  process.exit(1);
}
