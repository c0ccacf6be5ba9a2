#!/bin/sh
# tests/cli.sh: the output contract of corrchess perft, play and pgn.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The output contract of the `corrchess` rules tools (perft, play, pgn),
# checked against the built command. Perft counts are the published ones
# (chessprogramming.org, shakmaty's chess960.perft); expected FENs and ply
# counts of the PGN files were computed with another implementation
# (chessops 0.15.1). Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
data=$top_srcdir/tests/data/cli

START='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
KIWIPETE='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
C960='bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'

ok() {
	passed=$((passed + 1))
	echo "ok - $1"
}

not_ok() {
	failed=$((failed + 1))
	echo "not ok - $1"
	shift
	for line in "$@"; do
		echo "#   $line"
	done
	echo "#   stdout:"
	sed 's/^/#     /' "$tmp/out"
	echo "#   stderr:"
	sed 's/^/#     /' "$tmp/err"
}

# expect NAME STATUS EXPECTED_STDOUT: the last run's status and whole stdout.
expect() {
	printf '%s\n' "$3" >"$tmp/want"
	if [ "$status" -ne "$2" ]; then
		not_ok "$1" "exit status $status, want $2"
	elif ! cmp -s "$tmp/out" "$tmp/want"; then
		not_ok "$1" "want stdout:" "$3"
	else
		ok "$1"
	fi
}

# expect_fail NAME STATUS PATTERN...: the run failed with STATUS, printed
# nothing on stdout, and its stderr matches every (grep -F) PATTERN.
expect_fail() {
	name=$1
	want=$2
	shift 2
	if [ "$status" -ne "$want" ]; then
		not_ok "$name" "exit status $status, want $want"
		return
	fi
	if [ -s "$tmp/out" ]; then
		not_ok "$name" "stdout not empty"
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" "$tmp/err"; then
			not_ok "$name" "stderr lacks: $p"
			return
		fi
	done
	ok "$name"
}

# play_expect NAME FEN SAN STATUS -- ARGS...: `corrchess play ARGS` output.
play_expect() {
	name=$1
	want="fen: $2
san:${3:+ $3}
status: $4"
	shift 5
	run play "$@"
	expect "$name" 0 "$want"
}

if [ ! -x "$corrchess" ]; then
	echo "Bail out! $corrchess not built"
	exit 99
fi

# --- perft ---------------------------------------------------------------

for dn in 1:20 2:400 3:8902 4:197281; do
	run perft "${dn%%:*}"
	expect "perft start depth ${dn%%:*}" 0 "${dn#*:}"
done
for dn in 1:48 2:2039 3:97862; do
	run perft "${dn%%:*}" "$KIWIPETE"
	expect "perft kiwipete depth ${dn%%:*}" 0 "${dn#*:}"
done
for dn in 1:21 2:528 3:12189; do
	run perft "${dn%%:*}" "$C960"
	expect "perft Chess960 position 0 depth ${dn%%:*}" 0 "${dn#*:}"
done
run perft --chess960 2 "$C960"
expect "perft --chess960 with a Shredder FEN" 0 528
# shellcheck disable=SC2086
run perft 3 $KIWIPETE
expect "perft with the FEN as unquoted fields" 0 97862
run perft 0
expect "perft depth 0" 0 1
run perft 1 '8/8/8/8/8/8/8/K6k w - - 0 1'
expect "perft 1 with bare kings" 0 3

run perft --divide 2
if [ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 21 ] &&
    [ "$(tail -n 1 "$tmp/out")" = 400 ] &&
    [ "$(head -n 20 "$tmp/out" | grep -cE '^[a-h][1-8][a-h][1-8][qrbn]?: [0-9]+$')" -eq 20 ] &&
    grep -qx 'e2e4: 20' "$tmp/out" && grep -qx 'g1f3: 20' "$tmp/out" &&
    [ "$(head -n 20 "$tmp/out" | awk '{ s += $2 } END { print s }')" = 400 ]
then
	ok "perft --divide 2: 20 'UCI: count' lines summing to the last line"
else
	not_ok "perft --divide 2: 20 'UCI: count' lines summing to the last line"
fi
run perft --divide 1 "$KIWIPETE"
if [ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = 48 ] &&
    grep -qx 'e1g1: 1' "$tmp/out" && grep -qx 'e1c1: 1' "$tmp/out"; then
	ok "perft --divide 1 kiwipete: castling as e1g1/e1c1, total 48"
else
	not_ok "perft --divide 1 kiwipete: castling as e1g1/e1c1, total 48"
fi
run perft --chess960 --divide 1 "$KIWIPETE"
if [ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = 48 ] &&
    grep -qx 'e1h1: 1' "$tmp/out" && grep -qx 'e1a1: 1' "$tmp/out"; then
	ok "perft --chess960 --divide: castling as king takes rook"
else
	not_ok "perft --chess960 --divide: castling as king takes rook"
fi
run perft --divide 3 "$C960"
if [ "$status" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = 12189 ] &&
    [ "$(sed '$d' "$tmp/out" | awk '{ s += $2 } END { print s }')" = 12189 ]; then
	ok "perft --divide 3 Chess960: lines sum to the total"
else
	not_ok "perft --divide 3 Chess960: lines sum to the total"
fi

run perft 2 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1'
expect_fail "perft with a bad FEN: exit 1, reason on stderr" 1 "FEN" \
    "8 squares"
run perft x
expect_fail "perft with a bad depth: usage error" 2 "DEPTH" "usage:"
run perft
expect_fail "perft without a depth: usage error" 2 "usage:"
run perft --frobnicate 1
expect_fail "perft with an unknown option: usage error" 2 "--frobnicate"

# --- play ----------------------------------------------------------------

play_expect "play e4 e5" \
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2' \
    'e4 e5' ongoing -- e4 e5
play_expect "play with no move" "$START" '' ongoing --
play_expect "play mixes SAN, UCI, long algebraic and ICCF" \
    'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3' \
    'e4 e5 Nf3 Nc6' ongoing -- e2e4 e7-e5 Ng1-f3 2836
play_expect "play fool's mate" \
    'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3' \
    'f3 e5 g4 Qh4#' checkmate -- f3 e5 g4 Qh4
play_expect "play into stalemate" \
    '7k/5Q2/6K1/8/8/8/8/8 b - - 1 1' 'Qf7' stalemate -- \
    --fen '7k/8/6K1/8/8/8/8/5Q2 w - - 0 1' Qf7
play_expect "play threefold repetition by knight moves" "$(echo "$START" |
    sed 's/0 1$/8 5/')" 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8' \
    threefold-repetition -- Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8
play_expect "play fivefold repetition" "$(echo "$START" |
    sed 's/0 1$/16 9/')" \
    'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8' \
    fivefold-repetition -- Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 \
    Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8
run play Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 e4
expect_fail "play refuses a move after fivefold repetition" 1 "17" '"e4"' \
    "fivefold-repetition"
play_expect "play fifty moves (halfmove 99 + a quiet move)" \
    '8/8/8/4k3/8/8/R7/4K3 b - - 100 80' 'Ra2' fifty-moves -- \
    --fen '8/8/8/4k3/8/8/8/R3K3 w Q - 99 80' Ra2
play_expect "play seventy-five moves (halfmove 149 + a quiet move)" \
    '8/8/8/4k3/8/8/R7/4K3 b - - 150 80' 'Ra2' seventy-five-moves -- \
    --fen '8/8/8/4k3/8/8/8/R3K3 w Q - 149 80' Ra2
play_expect "play a capture leaving bare kings" \
    '8/8/8/4k3/8/8/3K4/8 b - - 0 1' 'Kxd2' insufficient-material -- \
    --fen '8/8/8/4k3/8/8/3r4/4K3 w - - 0 1' Kxd2
play_expect "play --lang fr (C F R D T letters)" \
    'r1bqk2r/pppp1ppp/2n2n2/1Bb1p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 6 5' \
    'e4 e5 Nf3 Nc6 Bb5 Bc5 O-O Nf6' ongoing -- --lang fr \
    e4 e5 Cf3 Cc6 Fb5 Fc5 O-O Cf6
play_expect "play --lang fr: R is the king" \
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 2' \
    'e4 e5 Ke2' ongoing -- --lang fr e4 e5 Re2
run play --lang fr e4 e5 Zz9
expect_fail "play --lang fr: a French hint, in French letters" 1 \
    'ce n'"'"'est pas un coup (essayez la notation algébrique : Cf3'
play_expect "play --lang=fr: D is the queen, 0-0 castles" \
    'rnbqk1nr/pppp1ppp/8/2b1p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3' \
    'e4 e5 Bc4 Bc5 Qf3' ongoing -- --lang=fr e4 e5 Fc4 Fc5 Df3
run play e4 e5 Re2
expect_fail "play in English: Re2 is a rook move, illegal here" 1 "3" \
    '"Re2"'
play_expect "play Chess960 O-O (Shredder-FEN castling)" \
    'rk5r/8/8/8/8/8/8/R4RK1 b ha - 1 1' 'O-O' ongoing -- \
    --fen 'rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1' O-O
play_expect "play Chess960 O-O-O given as king takes rook" \
    'rk5r/8/8/8/8/8/8/2KR3R b ha - 1 1' 'O-O-O' ongoing -- \
    --fen 'rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1' b1a1
play_expect "play Chess960 implied by X-FEN castling letters" \
    'r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R4RKQ b ea - 1 1' 'O-O' ongoing -- \
    --fen 'r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1' 0-0
play_expect "play --chess960 from the standard start" \
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1' 'e4' \
    ongoing -- --chess960 e4
play_expect "play en passant and promotion" \
    'rnbqk1nQ/ppp4p/3bp3/3p4/8/8/PPPP1PPP/RNBQKBNR b KQq - 0 5' \
    'e4 d5 e5 f5 exf6 e6 fxg7 Bd6 gxh8=Q' ongoing -- \
    e4 d5 e5 f5 exf6 e6 fxg7 Bd6 gxh8=Q
play_expect "play ambiguity resolved by the file" \
    '1R5R/3k4/8/1N3N2/8/8/8/K6R b - - 1 1' 'Rab8' ongoing -- \
    --fen 'R6R/3k4/8/1N3N2/8/8/8/K6R w - - 0 1' Rab8

run play --fen 'R6R/3k4/8/1N3N2/8/8/8/K6R w - - 0 1' Rb8
expect_fail "play rejects an ambiguous move" 1 "1" '"Rb8"' "ambiguous"
run play e4 e5 Ke3 Nc6
expect_fail "play rejects an illegal move: exit 1, no stdout, index and text" \
    1 "move 3" '"Ke3"' "illegal"
run play e4 zz9
expect_fail "play rejects text that is no move" 1 "move 2" '"zz9"'
run play -- -e4
if [ "$status" -eq 0 ] || { [ "$status" -eq 1 ] && [ ! -s "$tmp/out" ] &&
    grep -qF '"-e4"' "$tmp/err"; }; then
	ok "play: after --, an operand starting with a dash is a move"
else
	not_ok "play: after --, an operand starting with a dash is a move"
fi
play_expect "play: -- before ordinary moves" \
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' 'e4' \
    ongoing -- -- e4
run play -e4
expect_fail "play: an option-like move without -- is a usage error" 2 \
    "usage:"
run play --fen 'not a fen' e4
expect_fail "play with a bad FEN" 1 "not a fen"
run play --lang de e4
expect_fail "play with an unknown language" 2 "de"
run play --fen
expect_fail "play --fen without a value" 2 "--fen"

# --- pgn -----------------------------------------------------------------

GAMES='game 1: result=0-1 plies=4 status=checkmate fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
game 2: result=* plies=10 status=ongoing fen=r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6
game 3: result=1/2-1/2 plies=8 status=threefold-repetition fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5
game 4: result=1/2-1/2 plies=1 status=fifty-moves fen=8/8/8/4k3/8/8/R7/4K3 b - - 100 80
game 5: result=1/2-1/2 plies=1 status=stalemate fen=7k/5Q2/6K1/8/8/8/8/8 b - - 1 1
game 6: result=* plies=1 status=ongoing fen=r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R4RKQ b ea - 1 1'
run pgn "$data/games.pgn"
expect "pgn: one line per game (mate, castling, repetition, fifty, stalemate, Chess960)" 0 "$GAMES"

run pgn "$data/molinari-bordais-1979.pgn"
expect "pgn: a correspondence game ending in mate" 0 \
    'game 1: result=0-1 plies=10 status=checkmate fen=r1bqkb1r/pp1ppppp/5n2/2p5/2P1P3/2Nn2P1/PP1PNP1P/R1BQKB1R w KQkq - 1 6'

run pgn - <"$data/molinari-bordais-1979.pgn"
expect "pgn - reads standard input" 0 \
    'game 1: result=0-1 plies=10 status=checkmate fen=r1bqkb1r/pp1ppppp/5n2/2p5/2P1P3/2Nn2P1/PP1PNP1P/R1BQKB1R w KQkq - 1 6'

run pgn "$data/bad.pgn" "$data/molinari-bordais-1979.pgn"
if [ "$status" -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 4 ] &&
    grep -qx 'game 1: result=1-0 plies=7 status=checkmate fen=r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4' "$tmp/out" &&
    grep -q '^game 2: error: .*3.*Ke3' "$tmp/out" &&
    grep -qx 'game 3: result=\* plies=3 status=ongoing fen=rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2' "$tmp/out" &&
    grep -q '^game 4: result=0-1 plies=10 status=checkmate ' "$tmp/out"; then
	ok "pgn: an illegal game among good ones (exit 1, ply and move named, numbering across files)"
else
	not_ok "pgn: an illegal game among good ones (exit 1, ply and move named, numbering across files)"
fi

# Every game of tests/data/pgn listed in tests/data/events/game-events.tsv
# (made with chessops): plies, result and end state must agree. The table
# has no claimable draws, so a threefold/fifty (or fivefold/seventy-five)
# status must match an occurrence that the table records for that game.
# chess.js/0.pgn is left out: it uses "<br />" for newlines, chess.js's own
# option, not PGN.
events=$top_srcdir/tests/data/events/game-events.tsv
if [ -f "$events" ]; then
	ev_bad=0
	ev_games=0
	for f in $(awk -F'\t' 'NR > 1 && $1 != "chess.js/0.pgn" { print $1 }' \
	    "$events" | sort -u); do
		"$corrchess" pgn "$top_srcdir/tests/data/pgn/$f" >"$tmp/out" \
		    2>"$tmp/err"
		ev_games=$((ev_games + $(wc -l <"$tmp/out")))
		awk -F'\t' -v f="$f" '
		    NR == FNR {
			if ($1 == f) {
				g = $2 + 1; plies[g] = $3; res[g] = $4
				occ["threefold-repetition", g] = $5
				occ["fivefold-repetition", g] = $6
				occ["fifty-moves", g] = $7
				occ["seventy-five-moves", g] = $8
				st[g] = $9; n++
			}
			next
		    }
		    {
			# "game N: result=R plies=N status=S fen=..."
			split($0, w, " ")
			g = w[2]; sub(":", "", g); seen++
			if (w[3] == "error:" || !(g in st)) {
				print "#   " f ": " $0; bad++; next
			}
			split(w[3], r, "="); split(w[4], p, "=")
			split(w[5], s, "=")
			want = st[g]
			if (want == "ongoing" && occ[s[2], g] != "")
				want = s[2]
			if (p[2] != plies[g] || r[2] != res[g] ||
			    s[2] != want) {
				print "#   " f ": " $0 " -- want plies=" \
				    plies[g] " result=" res[g] " status=" want
				bad++
			}
		    }
		    END {
			if (seen != n) {
				print "#   " f ": " seen " games, want " n; bad++
			}
			exit bad > 0
		    }' "$events" "$tmp/out" || ev_bad=$((ev_bad + 1))
	done
	if [ "$ev_bad" -eq 0 ] && [ "$ev_games" -gt 1000 ]; then
		ok "pgn agrees with chessops on $ev_games real games (plies, result, end state)"
	else
		not_ok "pgn agrees with chessops on real games" \
		    "$ev_bad files differ, $ev_games games"
	fi
fi

run pgn "$data/no-such-file.pgn"
if [ "$status" -eq 1 ] && grep -qF "no-such-file.pgn" "$tmp/err"; then
	ok "pgn: a missing file is named on stderr, exit 1"
else
	not_ok "pgn: a missing file is named on stderr, exit 1"
fi
run pgn
expect_fail "pgn without a file: usage error" 2 "usage:"

# --- help and version ----------------------------------------------------

run --help
if [ "$status" -eq 0 ] && grep -q 'perft' "$tmp/out" &&
    grep -q 'play' "$tmp/out" && grep -q 'pgn' "$tmp/out"; then
	ok "--help lists the commands"
else
	not_ok "--help lists the commands"
fi
run help play
if [ "$status" -eq 0 ] && grep -q '^usage: corrchess play ' "$tmp/out"; then
	ok "help play"
else
	not_ok "help play"
fi
run perft --help
if [ "$status" -eq 0 ] && grep -q '^usage: corrchess perft ' "$tmp/out"; then
	ok "perft --help"
else
	not_ok "perft --help"
fi
run --version
if [ "$status" -eq 0 ] && grep -qE '^corrchess [0-9]+\.[0-9]+' "$tmp/out"; then
	ok "--version"
else
	not_ok "--version"
fi
run frobnicate
expect_fail "unknown command: usage error" 2 "frobnicate"
run
expect_fail "no command: usage error" 2 "usage:"

finish
