// The clients' test run (docs/clients.md, "Tests"), as ctest runs it:
//
//   node scripts/test.mjs build        ctest clients_build: generate the API types from the
//                                      binary's /openapi.json, build the three packages, pack
//                                      each with `npm pack`, check what the tarballs hold,
//                                      unpack them into .work/node_modules, compile the tests
//   node scripts/test.mjs run NAME     ctest clients_NAME (typescript, langchain, llamaindex):
//                                      node's test runner over .work/test/NAME.test.js
//   node scripts/test.mjs all          both, every suite
//
// The tests import the packages by name from .work/node_modules, so they run
// against what `npm pack` put in the tarballs (their dependencies resolve from
// clients/node_modules, installed by `npm ci`). CREDENCE_BINARY names the
// server (default ../build/release/src/app/credence).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const work = join(root, ".work");
const packages = [
  { dir: "typescript", name: "@credence/client", must: ["dist/index.js", "dist/index.d.ts", "dist/generated/schema.d.ts"] },
  { dir: "langchain", name: "@credence/langchain", must: ["dist/index.js", "dist/index.d.ts"] },
  { dir: "llamaindex", name: "@credence/llamaindex", must: ["dist/index.js", "dist/index.d.ts"] },
];
const suites = { typescript: "client", langchain: "langchain", llamaindex: "llamaindex" };

function fail(message) {
  console.error(`FAILED: ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.status !== 0) fail(`${command} ${args.join(" ")} exited ${result.status ?? result.signal}`);
}

function checkInstalled() {
  for (const dependency of ["typescript", "openapi-typescript", "openapi-fetch", "@langchain/core", "llamaindex"]) {
    if (!existsSync(join(root, "node_modules", dependency, "package.json"))) {
      fail(`${dependency} is not installed in clients/node_modules (cd clients && npm ci; scripts/test does it)`);
    }
  }
}

function checkTarball(pkg, manifest) {
  const files = manifest.files.map((f) => f.path);
  for (const path of ["package.json", "README.md", ...pkg.must]) {
    if (!files.includes(path)) fail(`${manifest.filename} lacks ${path}`);
  }
  const stray = files.filter((f) => !(f === "package.json" || f === "README.md" || f.startsWith("dist/")) || f.includes(".tsbuildinfo"));
  if (stray.length) fail(`${manifest.filename} holds files that are not for users: ${stray.join(", ")}`);
  const unpacked = join(work, "node_modules", ...pkg.name.split("/"));
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked, { recursive: true });
  execFileSync("tar", ["-xzf", join(work, "packs", manifest.filename), "-C", unpacked, "--strip-components=1"]);
  const json = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8"));
  for (const [name, range] of Object.entries(json.dependencies ?? {})) {
    if (!/^\d+\.\d+\.\d+$/.test(range)) fail(`${pkg.name} depends on ${name}@${range}: dependencies are pinned to a version`);
  }
  for (const target of [json.main, json.types, json.exports?.["."]?.import, json.exports?.["."]?.types]) {
    if (!target || !existsSync(join(unpacked, target))) fail(`${pkg.name}: package.json points at ${target}, which is not in the tarball`);
  }
  console.log(`${manifest.filename}: ${files.length} files, ${(manifest.size / 1024).toFixed(1)} KiB packed`);
}

function build() {
  checkInstalled();
  run(process.execPath, ["scripts/generate.mjs"]);
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  run(process.execPath, [tsc, "-b", "typescript", "langchain", "llamaindex"]);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, "packs"), { recursive: true });
  for (const pkg of packages) {
    const out = execFileSync("npm", ["pack", "--json", "--pack-destination", join(work, "packs"), "--workspace", pkg.name], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [manifest] = JSON.parse(out);
    checkTarball(pkg, manifest);
  }
  // Type-checked against the packages' declarations: what a user's compiler sees.
  run(process.execPath, [tsc, "-p", "test"]);
}

function runSuite(name) {
  const file = join(work, "test", `${suites[name] ?? fail(`no suite ${name}`)}.test.js`);
  if (!existsSync(file)) fail(`${file} is missing: run \`node scripts/test.mjs build\` first (ctest clients_build)`);
  run(process.execPath, ["--test", "--test-reporter=spec", file]);
}

const [command, name] = process.argv.slice(2);
if (command === "build") build();
else if (command === "run") runSuite(name);
else if (command === "all") {
  build();
  for (const suite of Object.keys(suites)) runSuite(suite);
} else {
  fail("usage: node scripts/test.mjs build | run typescript|langchain|llamaindex | all");
}
