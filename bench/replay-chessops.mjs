// bench/replay-chessops.mjs: the chessops side of bench/replay.
// corrchess - a correspondence chess server
// Copyright (C) 2026 The corrchess developers
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The chessops side of bench/replay: the same two figures as
// `corrchess bench-replay`, over the same PGN files, printed as the same
// "key: value" lines:
//   (i)  full PGN replay (parsePgn, startingPosition, parseSan, play);
//   (ii) SAN parse + make alone, from SAN lists extracted beforehand.
//
// usage: node bench/replay-chessops.mjs [--seconds S] FILE...
// chessops is looked up in $CHESSOPS_DIR, else bench/node/node_modules/chessops
// (npm install --prefix bench/node chessops).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = process.env.CHESSOPS_DIR ??
    join(here, 'node', 'node_modules', 'chessops');
const load = (m) => import(pathToFileURL(join(pkg, 'dist', 'esm', m)).href);
const { parsePgn, startingPosition } = await load('pgn.js');
const { parseSan } = await load('san.js');

let seconds = 1;
const args = process.argv.slice(2);
if (args[0] === '--seconds') {
  seconds = Number(args[1]);
  args.splice(0, 2);
}
if (args.length === 0) {
  console.error('usage: replay-chessops.mjs [--seconds S] FILE...');
  process.exit(2);
}
const texts = args.map((f) => readFileSync(f, 'utf8'));

// Replay every game of every text once; count the plies of legal games.
function replayPass(keep) {
  let plies = 0;
  let errors = 0;
  for (const text of texts) {
    for (const game of parsePgn(text)) {
      const setup = startingPosition(game.headers);
      if (setup.isErr) {
        errors++;
        continue;
      }
      const pos = setup.value;
      const start = keep ? pos.clone() : null;
      const sans = [];
      let ok = true;
      let n = 0;
      for (const node of game.moves.mainline()) {
        const move = parseSan(pos, node.san);
        if (!move) {
          ok = false;
          break;
        }
        pos.play(move);
        n++;
        if (keep) sans.push(node.san);
      }
      if (!ok) {
        errors++;
        continue;
      }
      plies += n;
      if (keep) keep.push({ start, sans });
    }
  }
  return { plies, errors };
}

const now = () => Number(process.hrtime.bigint()) / 1e9;

// Untimed pass: extract the SAN lists.
const games = [];
const first = replayPass(games);
console.log(`games: ${games.length}`);
console.log(`errors: ${first.errors}`);
console.log(`plies: ${first.plies}`);

let total = 0;
let passes = 0;
let t0 = now();
let t;
do {
  total += replayPass(null).plies;
  passes++;
  t = now() - t0;
} while (t < seconds);
console.log(`replay_passes: ${passes}`);
console.log(`replay_seconds: ${t.toFixed(3)}`);
console.log(`replay_plies_per_s: ${Math.round(total / t)}`);

let moves = 0;
passes = 0;
t0 = now();
do {
  for (const g of games) {
    const pos = g.start.clone();
    for (const san of g.sans) {
      const move = parseSan(pos, san);
      if (!move) throw new Error(`SAN ${san} did not parse back`);
      pos.play(move);
    }
    moves += g.sans.length;
  }
  passes++;
  t = now() - t0;
} while (t < seconds);
console.log(`san_passes: ${passes}`);
console.log(`san_seconds: ${t.toFixed(3)}`);
console.log(`san_moves_per_s: ${Math.round(moves / t)}`);
