// web/static/corrchess.js: the one ES module of the web pages.
//
// corrchess - a correspondence chess server
// Copyright (C) 2026 The corrchess developers
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The pages are complete without it. It adds what needs the browser:
//  - enrolment (/invite#TOKEN): an Ed25519 key pair made with WebCrypto,
//    not extractable, kept in IndexedDB, its public half registered with
//    the invitation's token;
//  - playing: legal destinations from the game's JSON, a click (or Enter)
//    on a piece and on its destination, or a drag (pointer events: mouse,
//    pen or finger), a promotion chooser, a text box
//    for any notation, draw offers, claims, resignation, leave; each
//    action is the statement for the current ply, signed with
//    crypto.subtle.sign("Ed25519") and posted like any other client's;
//  - conditional moves while the opponent is to move: entered, shown and
//    cancelled, each a signed statement too;
//  - the running clock, the times in the reader's time zone, and a
//    reload when the opponent has moved;
//  - the verification of a game's signed record: every signature against
//    the players' published keys and every hash of the chain.

const FR = document.documentElement.lang === 'fr';
const tr = (en, fr) => (FR ? fr : en);
const enc = new TextEncoder();

// --- Bytes ------------------------------------------------------------------

function b64encode(bytes) {
	let s = '';
	for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
	return btoa(s);
}

function b64decode(text) {
	const s = atob(text.replace(/\s+/g, ''));
	const out = new Uint8Array(s.length);
	for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
	return out;
}

function hex(bytes) {
	return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function concat(...parts) {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) { out.set(p, at); at += p.length; }
	return out;
}

function be64(n) {
	const out = new Uint8Array(8);
	new DataView(out.buffer).setBigUint64(0, BigInt(n));
	return out;
}

// An SSH "string": a 32-bit big-endian length and the bytes.
function sshString(bytes) {
	const out = new Uint8Array(4 + bytes.length);
	new DataView(out.buffer).setUint32(0, bytes.length);
	out.set(bytes, 4);
	return out;
}

// Read SSH strings from a blob, in order.
function sshReader(blob, at = 0) {
	const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
	return {
		u32() { const v = dv.getUint32(at); at += 4; return v; },
		bytes(n) {
			if (at + n > blob.length) throw new Error('truncated');
			const b = blob.subarray(at, at + n); at += n; return b;
		},
		string() { return this.bytes(this.u32()); },
	};
}

// --- BLAKE2b-256 (RFC 7693), for the record chain -----------------------

const M64 = (1n << 64n) - 1n;
const B2IV = [0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn,
	0xa54ff53a5f1d36f1n, 0x510e527fade682d1n, 0x9b05688c2b3e6c1fn,
	0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n];
const SIGMA = [
	[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
	[14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
	[11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
	[7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
	[9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
	[2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
	[12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
	[13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
	[6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
	[10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0]];

function rotr(x, n) { return ((x >> n) | (x << (64n - n))) & M64; }

function b2compress(h, block, t, last) {
	const dv = new DataView(block.buffer, block.byteOffset, 128);
	const m = [];
	for (let i = 0; i < 16; i++) m.push(dv.getBigUint64(i * 8, true));
	const v = h.concat(B2IV);
	v[12] ^= t & M64;
	v[13] ^= t >> 64n;
	if (last) v[14] ^= M64;
	const g = (a, b, c, d, x, y) => {
		v[a] = (v[a] + v[b] + x) & M64; v[d] = rotr(v[d] ^ v[a], 32n);
		v[c] = (v[c] + v[d]) & M64; v[b] = rotr(v[b] ^ v[c], 24n);
		v[a] = (v[a] + v[b] + y) & M64; v[d] = rotr(v[d] ^ v[a], 16n);
		v[c] = (v[c] + v[d]) & M64; v[b] = rotr(v[b] ^ v[c], 63n);
	};
	for (let r = 0; r < 12; r++) {
		const s = SIGMA[r % 10];
		g(0, 4, 8, 12, m[s[0]], m[s[1]]); g(1, 5, 9, 13, m[s[2]], m[s[3]]);
		g(2, 6, 10, 14, m[s[4]], m[s[5]]); g(3, 7, 11, 15, m[s[6]], m[s[7]]);
		g(0, 5, 10, 15, m[s[8]], m[s[9]]); g(1, 6, 11, 12, m[s[10]], m[s[11]]);
		g(2, 7, 8, 13, m[s[12]], m[s[13]]); g(3, 4, 9, 14, m[s[14]], m[s[15]]);
	}
	for (let i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

export function blake2b256(data) {
	const h = B2IV.slice();
	h[0] ^= 0x01010000n ^ 32n;
	let i = 0, t = 0n;
	while (data.length - i > 128) {
		t += 128n;
		b2compress(h, data.subarray(i, i + 128), t, false);
		i += 128;
	}
	const last = new Uint8Array(128);
	last.set(data.subarray(i));
	t += BigInt(data.length - i);
	b2compress(h, last, t, true);
	const out = new Uint8Array(64);
	const dv = new DataView(out.buffer);
	h.forEach((w, k) => dv.setBigUint64(k * 8, w, true));
	return out.subarray(0, 32);
}

// --- Keys in this browser -----------------------------------------------

function db() {
	return new Promise((resolve, reject) => {
		const rq = indexedDB.open('corrchess', 1);
		rq.onupgradeneeded = () =>
		    rq.result.createObjectStore('keys', { keyPath: 'player' });
		rq.onsuccess = () => resolve(rq.result);
		rq.onerror = () => reject(rq.error);
	});
}

async function keysAll() {
	const d = await db();
	return new Promise((resolve, reject) => {
		const rq = d.transaction('keys').objectStore('keys').getAll();
		rq.onsuccess = () => resolve(rq.result);
		rq.onerror = () => reject(rq.error);
	});
}

async function keyPut(rec) {
	const d = await db();
	return new Promise((resolve, reject) => {
		const t = d.transaction('keys', 'readwrite');
		t.objectStore('keys').put(rec);
		t.oncomplete = () => resolve();
		t.onerror = () => reject(t.error);
	});
}

// Why this page cannot sign, or null when it can.
function cannotSign() {
	if (!window.isSecureContext || !window.crypto || !crypto.subtle)
		return tr('This page cannot sign: browsers make and use keys '
		    + 'only on a secure page (HTTPS, or this computer\'s own '
		    + 'address). Open it through the club\'s https:// address.',
		    'Cette page ne peut pas signer : les navigateurs ne créent '
		    + 'et n\'utilisent des clés que sur une page sûre (HTTPS, ou '
		    + 'l\'adresse de cet ordinateur). Ouvrez-la par l\'adresse '
		    + 'https:// du club.');
	if (!window.indexedDB)
		return tr('This browser keeps no keys (IndexedDB is off).',
		    'Ce navigateur ne garde pas de clés (IndexedDB est coupé).');
	return null;
}

// Show a message in an element, good (true), bad (false) or plain.
function say(el, text, good) {
	el.textContent = text;
	el.classList.toggle('cc-good', good === true);
	el.classList.toggle('cc-bad', good === false);
}

// --- Enrolment ----------------------------------------------------------

function enrolPage(box) {
	const button = document.getElementById('cc-enrol');
	const msg = document.getElementById('cc-enrol-message');
	const token = location.hash.slice(1);
	const why = cannotSign();
	if (why) { say(msg, why, false); return; }
	if (!token) {
		say(msg, tr('This link holds no invitation: open the whole link '
		    + 'the club sent you.', 'Ce lien ne contient pas '
		    + 'd\'invitation : ouvrez le lien entier envoyé par le club.'),
		    false);
		return;
	}
	say(msg, '');
	button.hidden = false;
	button.addEventListener('click', async () => {
		button.disabled = true;
		try {
			const pair = await crypto.subtle.generateKey(
			    { name: 'Ed25519' }, false, ['sign', 'verify']);
			const pub = b64encode(await crypto.subtle.exportKey('raw',
			    pair.publicKey));
			const r = await fetch('/api/v1/invitations', {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ token, key: pub }),
			});
			const j = await r.json();
			if (r.status !== 201) {
				say(msg, j.error ? j.error.message : r.statusText,
				    false);
				button.disabled = false;
				return;
			}
			await keyPut({ player: j.player, lang: j.lang,
			    key: pair.privateKey, pub, added: Date.now() });
			history.replaceState(null, '', location.pathname);
			button.hidden = true;
			say(msg, tr('Welcome, ' + j.player + '. This browser now '
			    + 'holds your key; your games are on the club\'s page.',
			    'Bienvenue, ' + j.player + '. Ce navigateur garde '
			    + 'maintenant votre clé ; vos parties sont sur la page '
			    + 'du club.'), true);
			const a = document.createElement('a');
			a.href = '/?lang=' + (j.lang === 'fr' ? 'fr' : 'en');
			a.id = 'cc-to-club';
			a.textContent = tr('To the club', 'Vers le club');
			msg.after(a);
		} catch (e) {
			say(msg, tr('The key could not be made: ',
			    'La clé n\'a pas pu être créée : ') + e.message, false);
			button.disabled = false;
		}
	});
}

// --- The club -------------------------------------------------------------

async function clubPage(box) {
	let keys;
	try { keys = await keysAll(); } catch (e) { return; }
	const mine = new Set(keys.map((k) => k.player));
	const list = box.querySelector('ul');
	for (const row of document.querySelectorAll('#cc-ongoing tbody tr')) {
		const who = row.dataset.turn === 'white' ? row.dataset.white
		    : row.dataset.black;
		if (!mine.has(who)) continue;
		const li = document.createElement('li');
		const a = document.createElement('a');
		a.href = '/games/' + row.dataset.game;
		a.textContent = tr('Game ', 'Partie ') + row.dataset.game
		    + tr(': ', ' : ') + row.dataset.white + ' – '
		    + row.dataset.black;
		li.append(a);
		list.append(li);
	}
	if (list.children.length > 0) box.hidden = false;
}

// --- Clocks and updates ---------------------------------------------------

// A duration as the server writes it ("2d 3h" / "2 j 3 h").
function duration(s) {
	if (s < 0) s = 0;
	const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600);
	const m = Math.floor(s % 3600 / 60), sec = Math.floor(s % 60);
	const u = FR ? [' j', ' h', ' min', ' s'] : ['d', 'h', 'm', 's'];
	const parts = [];
	if (d) parts.push(d + u[0]);
	if (h) parts.push(h + u[1]);
	if (m && !d) parts.push(m + u[2]);
	if (!d && !h) parts.push(sec + u[3]);
	return parts.slice(0, 2).join(' ');
}

// Count the running clock down, once a second.
function clocks() {
	const start = Date.now();
	const running = document.querySelectorAll('.cc-left[data-running]');
	if (running.length === 0) return;
	setInterval(() => {
		const gone = Math.floor((Date.now() - start) / 1000);
		for (const el of running)
			el.textContent = duration(Number(el.dataset.left) - gone);
	}, 1000);
}

// Write every time of the page in the reader's time zone and language;
// the server's words (UTC) stay as the element's title.
function localTimes() {
	const f = new Intl.DateTimeFormat(FR ? 'fr-FR' : 'en-GB', {
		weekday: 'long', day: 'numeric', month: 'long', year: 'numeric',
		hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
	for (const el of document.querySelectorAll('time[datetime]')) {
		const t = new Date(el.getAttribute('datetime'));
		if (Number.isNaN(t.getTime())) continue;
		el.title = el.textContent;
		el.textContent = f.format(t);
	}
}

// Reload the game page when its ply or status changes on the server.
function poll(game) {
	const id = game.dataset.game, ply = Number(game.dataset.ply);
	if (game.dataset.status !== 'ongoing') return;
	setInterval(async () => {
		try {
			const r = await fetch('/api/v1/games/' + id,
			    { headers: { Accept: 'application/json' } });
			if (!r.ok) return;
			const g = await r.json();
			if (g.ply !== ply || g.status !== 'ongoing')
				location.reload();
		} catch (e) { /* the next poll tries again */ }
	}, 10000);
}

// --- Playing ----------------------------------------------------------------

// French "de" before a name: "d'" before a vowel, a y or an h, as the
// server writes it (util/french.h).
function frenchDe(name) {
	return /^[aeiouyhàâäéèêëîïôöùûüÿæœ]/i.test(name) ? 'd\'' : 'de ';
}

const SVGNS = 'http://www.w3.org/2000/svg';

async function playPage(game, box) {
	const id = game.dataset.game;
	const white = game.dataset.white, black = game.dataset.black;
	const msg = document.getElementById('cc-message');
	let keys;
	try { keys = await keysAll(); } catch (e) { return; }
	const toMove = game.dataset.turn === 'white' ? white : black;
	const me = keys.find((k) => k.player === toMove)
	    || keys.find((k) => k.player === white || k.player === black);
	if (!me) return;
	const why = cannotSign();
	if (why) {
		box.hidden = false;
		say(msg, why, false);
		for (const el of box.querySelectorAll('button, input'))
			el.disabled = true;
		return;
	}
	const myColor = me.player === white ? 'white' : 'black';
	// A draw is accepted or declined by the player it was offered to.
	const answer = box.querySelector('.cc-offer-answer');
	if (answer && answer.dataset.offerBy === myColor) answer.hidden = true;
	const r = await fetch('/api/v1/games/' + id,
	    { headers: { Accept: 'application/json' } });
	const g = await r.json();
	const opponent = me.player === white ? black : white;
	say(msg, g.turn === myColor
	    ? tr('Your move, ' + me.player + '.', 'À vous, ' + me.player + '.')
	    : tr('Waiting for ' + opponent + '\'s move: it is ' + opponent
	    + '\'s turn, not yours.', 'En attente du coup ' + frenchDe(opponent)
	    + opponent + ' : c\'est à ' + opponent + ' de jouer, pas à vous.'));
	// Only what the player can do now: the move box, the promotion
	// chooser, a move with a draw offer and a claim belong to the player
	// to move (the message box stays: it goes with a resignation too).
	if (g.turn !== myColor) {
		for (const el of box.querySelectorAll('#cc-move-line, '
		    + '#cc-promotion, button[data-action="offer-draw"], '
		    + 'button[data-action="claim-draw"]')) el.hidden = true;
	}

	// Sign the statement of one action for the current ply, with a
	// message to the opponent when `note` is given, and post it; returns
	// the answer's status and JSON.
	async function post(action, note) {
		const statement = 'corrchess-v1\ngame: ' + id + '\nply: ' + g.ply
		    + '\nplayer: ' + me.player + '\naction: ' + action + '\n'
		    + (note ? 'message: ' + note + '\n' : '');
		const sig = await crypto.subtle.sign({ name: 'Ed25519' },
		    me.key, enc.encode(statement));
		const res = await fetch('/api/v1/games/' + id + '/actions', {
			method: 'POST',
			headers: { 'Content-Type': 'application/json',
			    Accept: 'application/json' },
			body: JSON.stringify({ statement,
			    signature: b64encode(sig) }),
		});
		return [res.status, await res.json(), res.statusText];
	}

	// The message box's text as a statement's line takes it: one line,
	// blanks made one space.
	const noteBox = document.getElementById('cc-note');
	const note = () => noteBox.value.replace(/\s+/g, ' ').trim();

	// Sign and post one action (with the message box's text when
	// `withNote`); on success show the game after it.
	async function act(action, withNote) {
		try {
			const [status, j, text] = await post(action,
			    withNote ? note() : '');
			if (status === 201) {
				say(msg, tr('Accepted.', 'Accepté.'), true);
				location.reload();
				return;
			}
			say(msg, j.error ? j.error.message : text, false);
		} catch (e) {
			say(msg, e.message, false);
		}
	}

	// The board: legal destinations of the piece chosen.
	const svg = game.querySelector('svg.cc-board');
	const byFrom = new Map();
	for (const m of g.legal_moves || []) {
		const f = m.uci.slice(0, 2);
		if (!byFrom.has(f)) byFrom.set(f, []);
		byFrom.get(f).push(m);
	}
	let from = null;
	const rects = svg ? svg.querySelectorAll('rect.cc-sq') : [];
	const rectOf = (sq) => svg.querySelector('rect.cc-sq[data-square="'
	    + sq + '"]');
	const pieceOn = (sq) => svg.querySelector('use.cc-piece[data-square="'
	    + sq + '"]');
	function clear() {
		from = null;
		for (const el of svg.querySelectorAll('.cc-dot')) el.remove();
		for (const el of rects) {
			el.classList.remove('cc-from');
			el.removeAttribute('aria-pressed');
		}
		promo.hidden = true;
	}
	function choose(sq) {
		clear();
		from = sq;
		const rc = rectOf(sq);
		rc.classList.add('cc-from');
		rc.setAttribute('aria-pressed', 'true');
		for (const m of byFrom.get(sq)) {
			const t = rectOf(m.uci.slice(2, 4));
			if (t.dataset.target) continue;
			const c = document.createElementNS(SVGNS, 'circle');
			c.setAttribute('class', 'cc-dot');
			c.setAttribute('cx', Number(t.getAttribute('x')) + 50);
			c.setAttribute('cy', Number(t.getAttribute('y')) + 50);
			c.setAttribute('r', 16);
			c.dataset.square = m.uci.slice(2, 4);
			svg.append(c);
		}
		say(msg, tr('Piece on ', 'Pièce en ') + sq + tr(
		    ': choose its square.', ' : choisissez sa case.'));
	}
	const promo = document.getElementById('cc-promotion');
	function promote(moves) {
		promo.replaceChildren();
		const names = { q: tr('Queen', 'Dame'), r: tr('Rook', 'Tour'),
		    b: tr('Bishop', 'Fou'), n: tr('Knight', 'Cavalier') };
		const glyph = myColor === 'white'
		    ? { q: '♕', r: '♖', b: '♗', n: '♘' }
		    : { q: '♛', r: '♜', b: '♝', n: '♞' };
		for (const m of moves) {
			const p = m.uci[4];
			const b = document.createElement('button');
			b.type = 'button';
			b.textContent = glyph[p];
			b.title = names[p];
			b.setAttribute('aria-label', names[p]);
			b.dataset.promotion = p;
			b.addEventListener('click', () => { clear(); act('move '
			    + m.uci, true); });
			promo.append(b);
		}
		promo.hidden = false;
		promo.querySelector('button').focus();
	}
	function onSquare(sq) {
		if (g.turn !== myColor) {
			say(msg, tr('It is not your move.', 'Ce n\'est pas à vous '
			    + 'de jouer.'), false);
			return;
		}
		if (from !== null) {
			const moves = byFrom.get(from).filter((m) =>
			    m.uci.slice(2, 4) === sq);
			if (moves.length === 1) {
				clear();
				act('move ' + moves[0].uci, true);
				return;
			}
			if (moves.length > 1) { promote(moves); return; }
		}
		if (byFrom.has(sq)) choose(sq);
		else clear();
	}
	for (const el of rects) {
		const sq = el.dataset.square;
		const p = pieceOn(sq);
		el.setAttribute('tabindex', '0');
		el.setAttribute('role', 'button');
		el.setAttribute('aria-label', sq + (p ? ' ' + p.dataset.piece : ''));
		el.addEventListener('click', () => onSquare(sq));
		el.addEventListener('keydown', (e) => {
			if (e.key === 'Enter' || e.key === ' ') {
				e.preventDefault();
				onSquare(sq);
			}
		});
	}
	if (svg) svg.addEventListener('click', (e) => {
		if (e.target.classList.contains('cc-dot'))
			onSquare(e.target.dataset.square);
	});
	if (svg && g.turn === myColor) dragging(svg, rects, byFrom, pieceOn,
	    () => from, choose, onSquare);

	// The text box, the buttons, the leave form.
	const input = document.getElementById('cc-move');
	document.getElementById('cc-move-form').addEventListener('submit',
	    (e) => {
		e.preventDefault();
		const text = input.value.trim();
		if (text) act('move ' + text, true);
	});
	const confirmText = {
		'offer-draw': tr('Play this move and offer a draw?',
		    'Jouer ce coup et proposer la nulle ?'),
		'accept-draw': tr('Accept the draw? The game ends.',
		    'Accepter la nulle ? La partie se termine.'),
		'decline-draw': tr('Decline the draw?', 'Refuser la nulle ?'),
		'claim-draw': tr('Claim a draw?', 'Réclamer la nulle ?'),
		resign: tr('Resign this game? This cannot be undone.',
		    'Abandonner cette partie ? C\'est définitif.'),
	};
	for (const b of box.querySelectorAll('button[data-action]')) {
		b.addEventListener('click', () => {
			const a = b.dataset.action;
			const text = input.value.trim();
			if (a === 'offer-draw' && !text) {
				say(msg, tr('Type the move to play with the offer.',
				    'Tapez le coup à jouer avec la proposition.'), false);
				input.focus();
				return;
			}
			if (!confirm(confirmText[a])) return;
			if (a === 'offer-draw')
				act('move ' + text + ' offer-draw', true);
			else if (a === 'claim-draw' && text)
				act('claim-draw ' + text, true);
			else act(a, true);
		});
	}
	const leave = document.getElementById('cc-leave-form');
	leave.addEventListener('submit', (e) => {
		e.preventDefault();
		const f = leave.elements.from.value, t = leave.elements.to.value;
		if (confirm(tr('Take leave from ' + f + ' to ' + t + '?',
		    'Prendre congé du ' + f + ' au ' + t + ' ?')))
			act('leave ' + f + ' ' + t);
	});
	if (g.turn !== myColor) conditionals(post);
	// Shown once everything answers.
	box.hidden = false;
}

// Moves the server keeps in English SAN, in the page's letters (French:
// R D T F C for K Q R B N).
function sanLang(text) {
	const fr = { K: 'R', Q: 'D', R: 'T', B: 'F', N: 'C' };
	return document.documentElement.lang === 'fr'
	    ? text.replace(/[KQRBN]/g, (p) => fr[p]) : text;
}

// Conditional moves, while the opponent is to move: enter (replacing
// the ones before), show and cancel one's own; each a signed statement.
function conditionals(post) {
	const box = document.getElementById('cc-cond');
	if (!box) return;
	const view = document.getElementById('cc-cond-view');
	const input = document.getElementById('cc-cond-lines');
	const show = (c) => {
		const state = {
			active: tr('waiting', 'en attente'),
			cancelled: tr('cancelled', 'annulés'),
		}[c.status] || c.status;
		say(view, tr('Your conditional moves (' + state + ', '
		    + c.played + ' played, ' + c.lines_left + ' lines left): ',
		    'Vos coups conditionnels (' + state + ', ' + c.played
		    + ' joués, ' + c.lines_left + ' lignes restantes) : ')
		    + sanLang(c.lines), c.status === 'active');
		view.dataset.status = c.status;
	};
	async function run(action, done) {
		try {
			const [status, j, text] = await post(action);
			if (status === 201 && j.conditional) show(j.conditional);
			else if (status === 201) done(j);
			else say(view, j.error ? j.error.message : text, false);
		} catch (e) {
			say(view, e.message, false);
		}
	}
	document.getElementById('cc-cond-form').addEventListener('submit',
	    (e) => {
		e.preventDefault();
		const lines = input.value.trim();
		if (lines) run('conditional ' + lines, () => {});
	});
	document.getElementById('cc-cond-show').addEventListener('click',
	    () => run('show-conditional', () => {}));
	document.getElementById('cc-cond-cancel').addEventListener('click',
	    () => {
		if (confirm(tr('Cancel your conditional moves in this game?',
		    'Annuler vos coups conditionnels dans cette partie ?')))
			run('cancel-conditional', () => say(view, tr(
			    'Your conditional moves are cancelled.',
			    'Vos coups conditionnels sont annulés.'), true));
	});
	box.hidden = false;
}

// Drag to move (pointer events: mouse, pen, touch): press on a piece that
// has a legal move, carry it, release it on its square. A press released
// without moving is left to the click handlers; a drop off the piece's
// legal squares leaves it where it was.
function dragging(svg, rects, byFrom, pieceOn, chosen, choose, onSquare) {
	let drag = null, swallow = false;
	const at = (e) => {
		const p = svg.createSVGPoint();
		p.x = e.clientX;
		p.y = e.clientY;
		return p.matrixTransform(svg.getScreenCTM().inverse());
	};
	const squareAt = (pt) => {
		for (const r of rects) {
			const x = Number(r.getAttribute('x'));
			const y = Number(r.getAttribute('y'));
			if (pt.x >= x && pt.x < x + 100 && pt.y >= y && pt.y < y + 100)
				return r.dataset.square;
		}
		return null;
	};
	svg.classList.add('cc-draggable');
	svg.addEventListener('pointerdown', (e) => {
		if (e.button !== 0) return;
		const start = at(e), sq = squareAt(start);
		if (sq && byFrom.has(sq) && pieceOn(sq))
			drag = { sq, start, piece: pieceOn(sq), id: e.pointerId,
			    moving: false };
	});
	svg.addEventListener('pointermove', (e) => {
		if (!drag || e.pointerId !== drag.id) return;
		const pt = at(e);
		const dx = pt.x - drag.start.x, dy = pt.y - drag.start.y;
		if (!drag.moving) {
			if (Math.hypot(dx, dy) < 8) return;
			drag.moving = true;
			svg.setPointerCapture(e.pointerId);
			if (chosen() !== drag.sq) choose(drag.sq);
			// Its colour's group last, so the piece passes over the others.
			const group = drag.piece.parentNode;
			group.parentNode.append(group);
			drag.piece.classList.add('cc-dragged');
		}
		drag.piece.setAttribute('transform', 'translate(' + dx + ' '
		    + dy + ')');
	});
	const end = (e, drop) => {
		if (!drag || e.pointerId !== drag.id) return;
		const d = drag;
		drag = null;
		if (!d.moving) return;
		d.piece.removeAttribute('transform');
		d.piece.classList.remove('cc-dragged');
		// The click that follows a drag is not a click on a square.
		swallow = true;
		setTimeout(() => { swallow = false; }, 0);
		const to = drop ? squareAt(at(e)) : null;
		if (to && to !== d.sq) onSquare(to);
	};
	svg.addEventListener('pointerup', (e) => end(e, true));
	svg.addEventListener('pointercancel', (e) => end(e, false));
	svg.addEventListener('click', (e) => {
		if (swallow) { swallow = false; e.stopPropagation(); }
	}, true);
}

// --- The signed record ----------------------------------------------------

// The Ed25519 public key of an OpenSSH line or raw base64.
function pubkeyBytes(line) {
	const words = line.trim().split(/\s+/);
	if (words[0] === 'ssh-ed25519') {
		const rd = sshReader(b64decode(words[1]));
		rd.string();
		return rd.string();
	}
	return b64decode(words[0]);
}

async function ed25519Verify(pub, sig, data) {
	const k = await crypto.subtle.importKey('raw', pub, { name: 'Ed25519' },
	    false, ['verify']);
	return crypto.subtle.verify({ name: 'Ed25519' }, k, sig, data);
}

// Check one record's signature; returns [ok, binary signature, reason].
async function checkSignature(rec, pubs) {
	const text = rec.signature.trim();
	const S = enc.encode(rec.statement);
	if (text.startsWith('signature:')) {
		const G = b64decode(text.slice(10));
		for (const p of pubs)
			if (G.length === 64 && await ed25519Verify(p, G, S))
				return [true, G];
		return [false, G, tr('no key of the player made this signature',
		    'aucune clé du joueur n\'a fait cette signature')];
	}
	const m = text.match(/-----BEGIN SSH SIGNATURE-----([\s\S]*?)-----END SSH SIGNATURE-----/);
	if (!m) return [false, new Uint8Array(0), tr('no signature',
	    'pas de signature')];
	const G = b64decode(m[1]);
	try {
		const rd = sshReader(G);
		if (new TextDecoder().decode(rd.bytes(6)) !== 'SSHSIG')
			throw new Error('not SSHSIG');
		rd.u32();
		const krd = sshReader(rd.string());
		krd.string();
		const pk = krd.string();
		const ns = rd.string(), reserved = rd.string(), alg = rd.string();
		const srd = sshReader(rd.string());
		srd.string();
		const sig = srd.string();
		const algName = new TextDecoder().decode(alg);
		if (new TextDecoder().decode(ns) !== 'corrchess')
			return [false, G, tr('another namespace', 'autre espace')];
		const H = new Uint8Array(await crypto.subtle.digest(
		    algName === 'sha256' ? 'SHA-256' : 'SHA-512', S));
		const signed = concat(enc.encode('SSHSIG'), sshString(ns),
		    sshString(reserved), sshString(alg), sshString(H));
		if (!pubs.some((p) => hex(p) === hex(pk)))
			return [false, G, tr('signed with a key the player has not '
			    + 'published', 'signé d\'une clé que le joueur n\'a pas '
			    + 'publiée')];
		if (await ed25519Verify(pk, sig, signed)) return [true, G];
	} catch (e) { /* unreadable: refused below */ }
	return [false, G, tr('the signature does not match the statement',
	    'la signature ne correspond pas à la déclaration')];
}

// Check a game's creation record, the head of its chain (doc/signatures.md):
// signed by the server's key, for this game and its players; returns its
// hash, or throws the reason.
async function checkCreation(c, serverKey, game) {
	const R = enc.encode(c.record);
	const G = b64decode(c.signature);
	const field = (name) => (c.record.match(new RegExp('^' + name
	    + ': (.*)$', 'm')) || [])[1];
	if (!serverKey || G.length !== 64
	    || !await ed25519Verify(pubkeyBytes(serverKey), G, R))
		throw new Error(tr('the game\'s creation record is not signed by '
		    + 'the server\'s key', 'l\'acte de création de la partie n\'est '
		    + 'pas signé par la clé du serveur'));
	if (!c.record.startsWith('corrchess-game-v1\n')
	    || field('game') !== game.dataset.game
	    || field('white') !== game.dataset.white
	    || field('black') !== game.dataset.black)
		throw new Error(tr('the game\'s creation record is not for this '
		    + 'game and its players', 'l\'acte de création n\'est pas celui '
		    + 'de cette partie et de ses joueurs'));
	const h = blake2b256(concat(new Uint8Array(32), be64(R.length), R,
	    be64(G.length), G));
	if (hex(h) !== c.hash)
		throw new Error(tr('the creation record\'s hash is not the hash of '
		    + 'its contents', 'l\'empreinte de l\'acte de création n\'est '
		    + 'pas celle de son contenu'));
	return h;
}

async function verifyRecord(game) {
	const out = document.getElementById('cc-verdict');
	const id = game.dataset.game;
	say(out, tr('Checking…', 'Vérification…'));
	try {
		const j = await (await fetch('/api/v1/games/' + id
		    + '/records')).json();
		const recs = j.records;
		const pubs = {};
		for (const name of [game.dataset.white, game.dataset.black]) {
			const j = await (await fetch('/api/v1/players/'
			    + encodeURIComponent(name) + '/keys')).json();
			pubs[name] = j.keys.map((k) => pubkeyBytes(k.key));
		}
		// A game of before corrchess 0.2.0 has no creation record: its
		// chain starts from zero.
		let prev = new Uint8Array(32);
		if (j.creation) prev = await checkCreation(j.creation, j.server_key,
		    game);
		const auth = j.creation ? (j.creation.record.match(/^auth: (.*)$/m)
		    || [])[1] : null;
		const server = j.server_key ? [pubkeyBytes(j.server_key)] : [];
		let n = 0, byServer = 0;
		for (const rec of recs) {
			const where = tr('record ' + rec.seq + ' (ply ' + rec.ply
			    + '): ', 'relevé ' + rec.seq + ' (demi-coup ' + rec.ply
			    + ') : ');
			let G = new Uint8Array(0);
			if (rec.statement) {
				const who = (rec.statement.match(/^player: (.*)$/m)
				    || [])[1];
				const gid = (rec.statement.match(/^game: (.*)$/m)
				    || [])[1];
				// An admin's decision (abort, adjudicate) and an
				// attested action (Xfcc, a mail token) are signed
				// by the server's key, raw Ed25519; every other
				// statement by one of the player's keys.
				const admin = rec.kind === 'abort'
				    || rec.kind === 'adjudicate';
				const attested = !admin && rec.attested;
				if (gid !== id || (admin ? who !== 'admin'
				    : !pubs[who])) {
					say(out, where + tr('the statement is not for this '
					    + 'game and its players', 'la déclaration n\'est '
					    + 'pas pour cette partie et ses joueurs'), false);
					return;
				}
				if (attested && auth === 'signed') {
					say(out, where + tr('attested by the server ('
					    + rec.attested + '), but the game\'s creation '
					    + 'record says only the players\' own signatures',
					    'attesté par le serveur (' + rec.attested + '), '
					    + 'mais l\'acte de création de la partie n\'admet '
					    + 'que les signatures des joueurs'), false);
					return;
				}
				if ((admin || attested) && server.length === 0) {
					say(out, where + tr('signed by the server, but the '
					    + 'record gives no server key', 'signé par le '
					    + 'serveur, mais le relevé ne donne pas sa clé'),
					    false);
					return;
				}
				const [ok, sig, why] = await checkSignature(rec,
				    admin || attested ? server : pubs[who]);
				if (!ok || ((admin || attested) && !rec.signature
				    .trim().startsWith('signature:'))) {
					say(out, where + (admin || attested ? tr('not '
					    + 'signed by the server\'s key', 'pas signé par '
					    + 'la clé du serveur') : why), false);
					return;
				}
				if (admin || attested) byServer++;
				G = sig;
			}
			if (hex(prev) !== rec.prev_hash) {
				say(out, where + tr('the chain is broken before it',
				    'la chaîne est rompue avant lui'), false);
				return;
			}
			// A record signed by no one (the clock's "flag") hashes
			// its kind in place of a statement.
			const S = enc.encode(rec.statement || rec.kind);
			const h = blake2b256(concat(prev, be64(S.length), S,
			    be64(G.length), G));
			if (hex(h) !== rec.hash) {
				say(out, where + tr('its hash is not the hash of its '
				    + 'contents', 'son empreinte n\'est pas celle de son '
				    + 'contenu'), false);
				return;
			}
			prev = h;
			n++;
		}
		say(out, tr('Verified: ' + (j.creation ? 'the game\'s creation record '
		    + 'by the server\'s key, ' : '') + n + ' records, every '
		    + 'signature by the player\'s published key' + (byServer
		    ? ' (' + byServer + ' attested or decided by the server, by '
		    + 'its key)' : '') + ', every hash of the chain.',
		    'Vérifié : ' + (j.creation ? 'l\'acte de '
		    + 'création de la partie par la clé du serveur, ' : '') + n
		    + ' relevés, chaque signature par la clé publiée du joueur'
		    + (byServer ? ' (' + byServer + ' attestés ou décidés par le '
		    + 'serveur, par sa clé)' : '') + ', chaque empreinte de la '
		    + 'chaîne.'), true);
	} catch (e) {
		say(out, tr('The record could not be checked: ',
		    'Le relevé n\'a pas pu être vérifié : ') + e.message, false);
	}
}

// --- Start ------------------------------------------------------------------

// Show the page in the language of the player whose key this browser
// holds (the one playing this game, on a game page), unless the reader
// chose one (?lang=). Returns true when the page is being replaced.
async function playerLanguage(game) {
	if (new URLSearchParams(location.search).has('lang') || !window.indexedDB)
		return false;
	let keys;
	try { keys = await keysAll(); } catch (e) { return false; }
	const k = game ? keys.find((x) => x.player === game.dataset.white
	    || x.player === game.dataset.black) : keys[0];
	const want = k && k.lang === 'fr' ? 'fr' : 'en';
	if (!k || want === document.documentElement.lang) return false;
	const u = new URL(location.href);
	u.searchParams.set('lang', want);
	location.replace(u.href);
	return true;
}

// Start what the page holds; mark the document ready (data-cc-ready) for
// anyone waiting for the module, tests included.
async function start() {
	const game = document.getElementById('cc-game');
	const invite = document.getElementById('cc-invite');
	if (invite) {
		enrolPage(invite);
	} else if (await playerLanguage(game)) {
		return;
	}
	localTimes();
	clocks();
	if (game) {
		poll(game);
		const play = document.getElementById('cc-play');
		if (play) playPage(game, play);
		const v = document.getElementById('cc-verify');
		if (v && window.crypto && crypto.subtle) {
			v.hidden = false;
			v.addEventListener('click', () => verifyRecord(game));
		}
	}
	const yours = document.getElementById('cc-your-move');
	if (yours) clubPage(yours);
	document.documentElement.dataset.ccReady = '1';
}

start();
