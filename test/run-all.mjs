#!/usr/bin/env node
// Runs every suite (server Jest projects, console workspaces' Vitest) and prints one closing line
// "N passed, N failed" that totals them all. Exits non-zero when anything failed or a runner broke.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, '.test-out');
mkdirSync(out, { recursive: true });
const extra = process.argv.slice(2);
let passed = 0;
let failed = 0;
let broken = false;

function run(name, cmd, args, resultFile, parse) {
  console.log(`\n=== ${name} ===`);
  // Jest runs each project's suites in one process on this 2-core machine: every test file's modules
  // stay in its heap until the end, more than Node's default old space for the larger projects.
  const env = {
    ...process.env,
    NODE_OPTIONS:
      `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=10240 --experimental-vm-modules --disable-warning=ExperimentalWarning`.trim(),
  };
  // A result left by an earlier run must not stand in for a runner that wrote none this time.
  rmSync(resultFile, { force: true });
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (!existsSync(resultFile)) {
    console.error(`${name}: no result file (exit ${r.status})`);
    broken = true;
    return;
  }
  const counts = parse(JSON.parse(readFileSync(resultFile, 'utf8')));
  passed += counts.passed;
  failed += counts.failed;
  if (r.status !== 0 && counts.failed === 0) {
    console.error(`${name}: runner exited ${r.status} with no failed test (suite error)`);
    broken = true;
  }
}

// Some suites run the built product (the server process for the shutdown test, the console in the
// browser tests): build it first, unless the caller just did (GATEHOUSE_SKIP_BUILD=1, as .ci/run does).
if (process.env.GATEHOUSE_SKIP_BUILD !== '1') {
  console.log('\n=== build ===');
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) {
    console.error(`build failed (exit ${b.status})`);
    console.log('\n0 passed, 1 failed');
    process.exit(1);
  }
}

const jestResult = (j) => ({
  passed: j.numPassedTests,
  failed: j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0),
});
// --forceExit: the results are written once every suite has finished; a handle some suite left open (a
// keep-alive socket, a timer) must not keep the run from going on to the next runner.
if (extra.length) {
  // A narrowed run (paths, -t): one Jest process, as asked.
  const jestFile = join(out, 'jest.json');
  run(
    'server (jest)',
    'npx',
    ['jest', '--json', '--forceExit', `--outputFile=${jestFile}`, ...extra],
    jestFile,
    jestResult,
  );
} else {
  // The whole run: one Jest process per project (unit, each database, conformance, browser). In one
  // process every test file's modules stay in the heap to the end; past a few gigabytes each full
  // collection costs seconds, and the suites that collect on purpose (memory checks) pay it each time.
  const { projects } = createRequire(import.meta.url)(join(root, 'jest.config.js'));
  for (const { displayName } of projects) {
    const file = join(out, `jest-${displayName}.json`);
    run(
      `server (jest: ${displayName})`,
      'npx',
      ['jest', '--json', '--forceExit', '--selectProjects', displayName, `--outputFile=${file}`],
      file,
      jestResult,
    );
  }
}

if (!extra.length) {
  for (const ws of ['console-kit', 'host-app']) {
    const pkg = join(root, ws, 'package.json');
    if (!existsSync(pkg) || !JSON.parse(readFileSync(pkg, 'utf8')).scripts?.test) continue;
    const file = join(out, `${ws}.json`);
    run(
      `${ws} (vitest)`,
      'npm',
      [
        'run',
        'test',
        '--workspace',
        ws,
        '--',
        '--reporter=default',
        '--reporter=json',
        `--outputFile=${file}`,
      ],
      file,
      (j) => ({
        passed: j.numPassedTests,
        failed: j.numFailedTests + (j.numFailedTestSuites && !j.numFailedTests ? j.numFailedTestSuites : 0),
      }),
    );
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || broken ? 1 : 0);
