// web/static/corrchess.js: the one ES module of the web pages.
//
// corrchess - a correspondence chess server
// Copyright (C) 2026 The corrchess developers
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The pages are complete without it; it adds the live clocks and learns
// of the opponent's move without a reload (it polls the game's JSON).

const FR = document.documentElement.lang === 'fr';
const tr = (en, fr) => (FR ? fr : en);

// A duration as the server writes it ("2d 3h" / "2 j 3 h").
function duration(s) {
	if (s < 0) s = 0;
	const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600);
	const m = Math.floor(s % 3600 / 60), sec = Math.floor(s % 60);
	const u = FR ? [' j', ' h', ' min', ' s'] : ['d', 'h', 'm', 's'];
	const parts = [];
	if (d) parts.push(d + u[0]);
	if (h || (d && parts.length < 2)) parts.push(h + u[1]);
	if (!d && (m || h)) parts.push(m + u[2]);
	if (!d && !h) parts.push(sec + u[3]);
	return parts.slice(0, 2).join(' ');
}

// Count the running clock down, once a second.
function clocks() {
	const start = Date.now();
	const running = document.querySelectorAll('.cc-left[data-running]');
	if (running.length === 0) return;
	const tick = () => {
		const gone = Math.floor((Date.now() - start) / 1000);
		for (const el of running)
			el.textContent = duration(Number(el.dataset.left) - gone);
	};
	setInterval(tick, 1000);
}

// Reload the game page when its ply or status changes on the server.
function poll(game) {
	const id = game.dataset.game, ply = Number(game.dataset.ply);
	const status = game.dataset.status;
	if (status !== 'ongoing') return;
	setInterval(async () => {
		try {
			const r = await fetch('/api/v1/games/' + id,
			    { headers: { Accept: 'application/json' } });
			if (!r.ok) return;
			const g = await r.json();
			if (g.ply !== ply || g.status !== status)
				location.reload();
		} catch (e) { /* the next poll tries again */ }
	}, 15000);
}

const game = document.getElementById('cc-game');
clocks();
if (game) poll(game);
