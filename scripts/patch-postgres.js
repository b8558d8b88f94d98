// npm's `postinstall`: postgres.js gets patches/postgres+3.4.9.patch (what each fix is for: patches/README.md),
// applied by patch-package, but only onto the files that patch was made from. A patch applied by context would
// also apply to another release's code it was never tested against, or to a file changed by hand, so the
// installed version must be the patch's and each file it touches must hash as published or as already patched
// (a second install); anything else fails the install. Plain JavaScript: nothing is compiled yet at install time.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const VERSION = "3.4.9";
const PATCH = `patches/postgres+${VERSION}.patch`;
// npm runs the script in the project's root, where patch-package looks for node_modules and patches/ too.
const PACKAGE = path.join(process.cwd(), "node_modules", "postgres");

// sha256 of each file the patch touches: as published (the registry's tarball of 3.4.9) and as the patch leaves it.
const HASHES = {
  "src/connection.js": {
    published: "ee3a218d9aa6a6f2887c1a19da50009335fe84c11a5431d5cab72d6bc528632f",
    patched: "b20e02d0fbebe0010228b71552db5a4dc3b7d69a94d1e094ca87b7a3fd1ae1e0",
  },
  "src/index.js": {
    published: "4e21f5733e70d79cffc10d10d4ef01031de4a9ac862210e43f8870029fd103ed",
    patched: "362d13392fbfc94da0c5939716767be5ad86e5563a79cfa711ef08334079e9ec",
  },
  "cjs/src/connection.js": {
    published: "ce6d375809baad79963ef9b3773e6ac757bcf6da2362d4d85482bb14c2c751be",
    patched: "ac950ab0b77555d71bafc312e1e14827216a0d1a29edd18a5bcdd91f0df9ba80",
  },
  "cjs/src/index.js": {
    published: "d8fea1a5311c47e65004646bc81f57305ac64d48f99004a5b3ca27bcfc6babf8",
    patched: "9da976603856ac90e3cd26b6026cb58c47b10eb05edf3136a6a725eadc0f6305",
  },
  "cf/src/connection.js": {
    published: "3efad812b825f76708f2e62e8dd00088900206e04afed2dc4b75b9aecd435fa9",
    patched: "d62e136f66cd6ae2470181afd6ec16a195a17ca6011a24cb75b80d30087038da",
  },
  "cf/src/index.js": {
    published: "aca9c247b7ddb2aedf90d20ce8e6f52ac6ebd95865056599ca05ed4dab4baad7",
    patched: "de42ba1e73940a42263d6e7c220dd22a79a45257ec6aeaf2f54706350e71dfa6",
  },
};

function fail(message) {
  console.error(`postgres patch: ${message}`);
  process.exit(1);
}

function read(file) {
  try {
    return readFileSync(path.join(PACKAGE, file));
  } catch {
    return fail(`node_modules/postgres/${file} cannot be read: is postgres installed? Run \`npm install\` again.`);
  }
}

function sha256(file) {
  return createHash("sha256").update(read(file)).digest("hex");
}

const installed = JSON.parse(read("package.json").toString("utf8")).version;
if (installed !== VERSION) {
  fail(
    `postgres ${installed} is installed, but ${PATCH} was made and checked for ${VERSION} only. ` +
      `Install postgres ${VERSION} (package.json pins it), or make a patch for ${installed} as patches/README.md says.`,
  );
}

for (const [file, { published, patched }] of Object.entries(HASHES)) {
  const hash = sha256(file);
  if (hash !== published && hash !== patched) {
    fail(
      `node_modules/postgres/${file} is neither postgres ${VERSION} as published nor as ${PATCH} leaves it ` +
        `(sha256 ${hash}); refusing to patch it. Reinstall postgres: rm -rf node_modules/postgres && npm install.`,
    );
  }
}

const patchPackage = createRequire(import.meta.url).resolve("patch-package/index.js");
const run = spawnSync(process.execPath, [patchPackage, "--error-on-fail"], { stdio: "inherit" });
if (run.status !== 0) fail(`patch-package failed (exit ${run.status ?? run.signal}); postgres is not patched.`);

for (const [file, { patched }] of Object.entries(HASHES)) {
  if (sha256(file) !== patched) fail(`node_modules/postgres/${file} is not as ${PATCH} should leave it after patch-package ran.`);
}
