# tests/browser.py: the web pages in a real browser (Chromium, headless).
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Drives Debian's chromium over the DevTools protocol on a pipe
# (--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4), with the
# Python standard library alone. tests/browser.sh runs it in two phases
# against the real corrchessd; each browser profile is a directory, so the
# keys a browser made in phase 1 are still there in phase 2.
#
#   browser.py enrol-play STATE   enrol alice and bob by invitation (two
#                                 profiles), play games 1 to 4 by clicking
#                                 squares, the promotion chooser, the text
#                                 box and the draw buttons, a refused
#                                 move, game 6 by mouse and finger drags
#                                 and the keyboard, verify the record
#   browser.py after STATE        the records the server signed (game 8)
#                                 verify; a tampered copy's fail to
#                                 verify; the French page of the French
#                                 player; 360 px wide (a game's page and
#                                 an event's); screenshots
#   browser.py https STATE        (tests/tls.sh) enrol carol at
#                                 https://corrchess.test, play a move
#
# STATE is a directory holding `base` (the server's URL), `invite.alice`,
# `invite.bob` (the links), `tampered` (phase 2: the copy's URL) and
# `shots` (where screenshots go); results are written there too. Prints
# "ok NAME" or "FAIL NAME: why" per check, then exits 0 or 1.

import base64
import fcntl
import json
import os
import shutil
import struct
import subprocess
import sys
import threading
import time
import zlib

CHROMIUM = os.environ.get('CHROMIUM', 'chromium')
WAIT = float(os.environ.get('CORRCHESS_BROWSER_WAIT', '20'))
failed = 0


def ok(name):
    print('ok ' + name, flush=True)


def bad(name, why=''):
    global failed
    failed += 1
    print('FAIL ' + name + (': ' + why if why else ''), flush=True)


def check(name, cond, why=''):
    if cond:
        ok(name)
    else:
        bad(name, why)
    return cond


class Browser:
    """One Chromium process with its own profile, and one page in it."""

    def __init__(self, profile, log, extra=()):
        r3, w3 = os.pipe()
        r4, w4 = os.pipe()
        args = [CHROMIUM, '--headless=new', '--remote-debugging-pipe',
                '--user-data-dir=' + profile, '--no-first-run',
                '--no-default-browser-check', '--disable-gpu',
                '--disable-extensions', '--disable-background-networking',
                '--disable-component-update', '--disable-sync',
                '--hide-scrollbars', '--mute-audio',
                '--window-size=1200,900'] + list(extra) + ['about:blank']
        if os.geteuid() == 0:
            args.insert(1, '--no-sandbox')
        # Chromium reads commands on fd 3 and writes on fd 4: in the
        # child, move the pipe's ends there (by way of fds above 9, in
        # case the pipes themselves are 3 or 4).
        def child():
            hr = fcntl.fcntl(r3, fcntl.F_DUPFD, 10)
            hw = fcntl.fcntl(w4, fcntl.F_DUPFD, 10)
            os.dup2(hr, 3)
            os.dup2(hw, 4)
        self.proc = subprocess.Popen(args, close_fds=False,
                                     preexec_fn=child, stdin=subprocess.DEVNULL,
                                     stdout=log, stderr=log)
        os.close(r3)
        os.close(w4)
        self.wfd, self.rfd = w3, r4
        self.lock = threading.Lock()
        self.cond = threading.Condition()
        self.next_id = 0
        self.replies = {}
        self.events = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        target = self.call('Target.createTarget', {'url': 'about:blank'})
        self.session = self.call('Target.attachToTarget', {
            'targetId': target['targetId'], 'flatten': True})['sessionId']
        for m in ('Page.enable', 'Runtime.enable'):
            self.call(m, session=self.session)

    def _read(self):
        buf = b''
        while True:
            chunk = os.read(self.rfd, 65536)
            if not chunk:
                break
            buf += chunk
            while b'\0' in buf:
                msg, buf = buf.split(b'\0', 1)
                self._dispatch(json.loads(msg))

    def _dispatch(self, m):
        if m.get('method') == 'Page.javascriptDialogOpening':
            # Every confirmation the page asks for is accepted.
            self.send('Page.handleJavaScriptDialog', {'accept': True},
                      m.get('sessionId'))
        with self.cond:
            if 'id' in m:
                self.replies[m['id']] = m
            else:
                self.events.append(m)
            self.cond.notify_all()

    def send(self, method, params=None, session=None):
        with self.lock:
            self.next_id += 1
            mid = self.next_id
            msg = {'id': mid, 'method': method, 'params': params or {}}
            if session:
                msg['sessionId'] = session
            os.write(self.wfd, json.dumps(msg).encode() + b'\0')
        return mid

    def call(self, method, params=None, session=None):
        mid = self.send(method, params, session)
        end = time.time() + WAIT
        with self.cond:
            while mid not in self.replies:
                if not self.cond.wait(end - time.time()):
                    raise RuntimeError(method + ': no answer')
            r = self.replies.pop(mid)
        if 'error' in r:
            raise RuntimeError(method + ': ' + r['error']['message'])
        return r.get('result', {})

    def page(self, method, params=None):
        return self.call(method, params, self.session)

    def eval(self, expr):
        r = self.page('Runtime.evaluate', {
            'expression': expr, 'awaitPromise': True,
            'returnByValue': True})
        if 'exceptionDetails' in r:
            raise RuntimeError('script: ' + json.dumps(
                r['exceptionDetails'])[:300])
        return r['result'].get('value')

    def wait(self, expr):
        """Wait until expr is true in the page (at most WAIT seconds)."""
        end = time.time() + WAIT
        while time.time() < end:
            try:
                if self.eval('!!(' + expr + ')'):
                    return True
            except RuntimeError:
                pass  # the page is being replaced
            time.sleep(0.1)
        return False

    def goto(self, url):
        with self.cond:
            self.events.clear()
        self.page('Page.navigate', {'url': url})
        # The module marks the page ready once started (and not when it
        # replaces the page by the reader's language).
        return self.wait('document.readyState === "complete" && '
                         'document.documentElement.dataset.ccReady === "1"')

    def click(self, selector):
        """A real mouse click at the middle of the element."""
        box = self.eval('(() => { const e = document.querySelector(%s); '
                        'if (!e) return null; e.scrollIntoView({block: '
                        '"center"}); const r = e.getBoundingClientRect(); '
                        'return [r.x + r.width / 2, r.y + r.height / 2]; })()'
                        % json.dumps(selector))
        if box is None:
            raise RuntimeError('nothing to click at ' + selector)
        for t in ('mouseMoved', 'mousePressed', 'mouseReleased'):
            self.page('Input.dispatchMouseEvent', {
                'type': t, 'x': box[0], 'y': box[1], 'button': 'left',
                'clickCount': 1})

    def centre(self, selector):
        box = self.eval('(() => { const e = document.querySelector(%s); '
                        'if (!e) return null; const r = e.getBoundingClientRect();'
                        ' return [r.x + r.width / 2, r.y + r.height / 2]; })()'
                        % json.dumps(selector))
        if box is None:
            raise RuntimeError('nothing at ' + selector)
        return box

    def drag(self, frm, to, touch=False, steps=8):
        """Press on FROM, move to TO in steps, release: with the mouse, or
        with a finger (touch events)."""
        self.eval('document.querySelector(%s).scrollIntoView({block: '
                  '"center"})' % json.dumps(frm))
        a, b = self.centre(frm), self.centre(to)
        path = [(a[0] + (b[0] - a[0]) * i / steps,
                 a[1] + (b[1] - a[1]) * i / steps) for i in range(steps + 1)]
        if touch:
            self.page('Input.dispatchTouchEvent', {
                'type': 'touchStart', 'touchPoints': [{'x': a[0], 'y': a[1]}]})
            for x, y in path[1:]:
                self.page('Input.dispatchTouchEvent', {
                    'type': 'touchMove', 'touchPoints': [{'x': x, 'y': y}]})
            self.page('Input.dispatchTouchEvent', {
                'type': 'touchEnd', 'touchPoints': []})
            return
        self.page('Input.dispatchMouseEvent', {
            'type': 'mouseMoved', 'x': a[0], 'y': a[1]})
        self.page('Input.dispatchMouseEvent', {
            'type': 'mousePressed', 'x': a[0], 'y': a[1], 'button': 'left',
            'buttons': 1, 'clickCount': 1})
        for x, y in path[1:]:
            self.page('Input.dispatchMouseEvent', {
                'type': 'mouseMoved', 'x': x, 'y': y, 'button': 'left',
                'buttons': 1})
        self.page('Input.dispatchMouseEvent', {
            'type': 'mouseReleased', 'x': b[0], 'y': b[1], 'button': 'left',
            'buttons': 0, 'clickCount': 1})

    def key(self, selector, key):
        """Focus an element and press a key on it."""
        self.eval('document.querySelector(%s).focus()' % json.dumps(selector))
        for t in ('keyDown', 'keyUp'):
            self.page('Input.dispatchKeyEvent', {
                'type': t, 'key': key, 'code': key,
                'windowsVirtualKeyCode': 13 if key == 'Enter' else 0})

    def type(self, selector, text):
        self.eval('document.querySelector(%s).focus()' % json.dumps(selector))
        self.page('Input.insertText', {'text': text})

    def shot(self, path):
        data = self.page('Page.captureScreenshot', {'format': 'png'})
        with open(path, 'wb') as f:
            f.write(base64.b64decode(data['data']))

    def close(self):
        try:
            self.call('Browser.close')
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def png_colours(path):
    """The number of distinct colours of a PNG (8-bit RGB or RGBA)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        return 0
    at, idat, w, h, ctype = 8, b'', 0, 0, 0
    while at < len(data):
        n, kind = struct.unpack('>I4s', data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            if depth != 8 or ctype not in (2, 6):
                return 0
        elif kind == b'IDAT':
            idat += body
        at += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        if y % 4 == 0:
            for x in range(0, w, 4):
                seen.add(bytes(line[x * bpp:x * bpp + 3]))
        prev = line
    return len(seen)


def read(state, name):
    with open(os.path.join(state, name)) as f:
        return f.read().strip()


def write(state, name, text):
    with open(os.path.join(state, name), 'w') as f:
        f.write(text + '\n')


def ply(b):
    return b.eval('Number(document.getElementById("cc-game").dataset.ply)')


def message(b):
    return b.eval('(document.getElementById("cc-message") || {})'
                  '.textContent || ""')


def at_ply(b, n):
    """Wait until the game page (reloaded) shows ply N."""
    return b.wait('document.getElementById("cc-game") && Number(document.'
                  'getElementById("cc-game").dataset.ply) === %d' % n)


def move(b, base, game, frm, to, name, note=None):
    """Click FROM then TO on the board of GAME, with NOTE in the message
    box when given; the page reloads at the next ply."""
    b.goto('%s/games/%d' % (base, game))
    before = ply(b)
    b.wait('!document.getElementById("cc-play").hidden')
    if note is not None:
        b.type('#cc-note', note)
    b.click('rect.cc-sq[data-square="%s"]' % frm)
    b.wait('document.querySelector(".cc-dot")')
    b.click('rect.cc-sq[data-square="%s"]' % to)
    check(name, at_ply(b, before + 1), message(b) or '')


def enrol(b, link, who):
    b.goto(link)
    if not check(who + ': the invitation page offers to make a key',
                 b.wait('!document.getElementById("cc-enrol").hidden'),
                 b.eval('document.getElementById("cc-enrol-message")'
                        '.textContent')):
        return
    b.click('#cc-enrol')
    check(who + ': enrolled', b.wait('document.getElementById("cc-to-club")'),
          b.eval('document.getElementById("cc-enrol-message").textContent'))
    check(who + ': the token left the address bar',
          b.eval('location.hash') == '')
    check(who + ': the key is not extractable', b.eval(
        '(async () => { const d = await new Promise((ok) => { const r = '
        'indexedDB.open("corrchess"); r.onsuccess = () => ok(r.result); });'
        ' const k = await new Promise((ok) => { const r = d.transaction('
        '"keys").objectStore("keys").getAll(); r.onsuccess = () => '
        'ok(r.result); }); return k.length === 1 && k[0].key.extractable '
        '=== false && k[0].key.type === "private"; })()'))


def enrol_play(state, log):
    base = read(state, 'base')
    alice = Browser(os.path.join(state, 'profile-alice'), log)
    bob = Browser(os.path.join(state, 'profile-bob'), log)
    try:
        enrol(alice, read(state, 'invite.alice'), 'alice')
        enrol(bob, read(state, 'invite.bob'), 'bob')
        # A link works once (a new document: not a jump to a fragment).
        bob.goto(base + '/')
        bob.goto(read(state, 'invite.alice'))
        bob.wait('!document.getElementById("cc-enrol").hidden')
        bob.click('#cc-enrol')
        check('a used invitation is refused', bob.wait(
            'document.getElementById("cc-enrol-message").classList'
            '.contains("cc-bad")'))
        write(state, 'used-message', bob.eval(
            'document.getElementById("cc-enrol-message").textContent'))

        # The club page lists the game where it is alice's move.
        alice.goto(base + '/')
        check('club: your move', alice.wait(
            '!document.getElementById("cc-your-move").hidden && document.'
            'querySelector("#cc-your-move a[href=\'/games/1\']")'))

        # Game 4, where White moves: bob's page has no move box, says
        # whose turn it is and keeps what he can do while he waits.
        bob.goto(base + '/games/4')
        bob.wait('!document.getElementById("cc-play").hidden')
        check('waiting: no move box', bob.eval(
            'document.getElementById("cc-move-line").offsetParent === null'
            ' && document.getElementById("cc-move").offsetParent === null'))
        check('waiting: no "move and offer a draw", no claim', bob.eval(
            'document.querySelector("button[data-action=\'offer-draw\']")'
            '.offsetParent === null && document.querySelector("button['
            'data-action=\'claim-draw\']").offsetParent === null'))
        check('waiting: resign and the message box stay', bob.eval(
            'document.querySelector("button[data-action=\'resign\']")'
            '.offsetParent !== null && document.getElementById("cc-note")'
            '.offsetParent !== null'))
        check('waiting: the page says whose turn it is',
              'alice' in message(bob) and 'pas à vous' in message(bob),
              message(bob))
        alice.goto(base + '/games/4')
        alice.wait('!document.getElementById("cc-play").hidden')
        check('to move: the move box shown', alice.eval(
            'document.getElementById("cc-move").offsetParent !== null'))
        check('to move: the page says so', message(alice) ==
              'Your move, alice.', message(alice))
        # A move out of turn from a page that still shows the box (one
        # left open while the game moved on): the server refuses it and
        # the page shows why.
        bob.eval('document.getElementById("cc-move-line").hidden = false')
        bob.type('#cc-move', 'e5')
        bob.click('#cc-move-form button[type=submit]')
        got = bob.wait('document.getElementById("cc-message").classList'
                       '.contains("cc-bad")')
        check('not your turn: refused in the page', got)
        write(state, 'refusal', message(bob))
        check('not your turn: the game unchanged', ply(bob) == 0)

        # Game 1 to checkmate by clicks: 1. f3 e5 2. g4 Qh4#.
        # With a message typed in the box, signed with the move; the
        # opponent's page shows it as text, never as markup.
        note = 'Bonne chance <b>bob</b> & <script>alert(1)</script>'
        move(alice, base, 1, 'f2', 'f3', 'game 1: alice f2-f3 by clicks',
             note)
        bob.goto(base + '/games/1')
        check('game 1: alice\'s message on bob\'s page, as text', bob.wait(
            'document.querySelector(".cc-note") && document.querySelector('
            '".cc-note").textContent === %s' % json.dumps(note)),
            bob.eval('(document.querySelector(".cc-notes") || {}).innerHTML'))
        check('game 1: no markup from the message', bob.eval(
            '!document.querySelector(".cc-notes b, .cc-notes script")'))
        move(bob, base, 1, 'e7', 'e5', 'game 1: bob e7-e5 by clicks')
        move(alice, base, 1, 'g2', 'g4', 'game 1: alice g2-g4 by clicks')
        move(bob, base, 1, 'd8', 'h4', 'game 1: bob Qd8-h4 mate by clicks')
        check('game 1: checkmate shown', 'échec et mat' in bob.eval(
            'document.getElementById("cc-status").textContent'),
            bob.eval('document.getElementById("cc-status").textContent'))
        check('game 1: the French moves of a French player',
              bob.eval('document.documentElement.lang') == 'fr' and
              'Dh4#' in bob.eval('document.querySelector(".cc-moves")'
                                 '.textContent'))

        # Game 2: a promotion through the chooser (to a knight).
        alice.goto(base + '/games/2')
        alice.wait('!document.getElementById("cc-play").hidden')
        alice.click('rect.cc-sq[data-square="a7"]')
        alice.wait('document.querySelector(".cc-dot")')
        alice.click('rect.cc-sq[data-square="a8"]')
        check('game 2: the promotion chooser', alice.wait(
            '!document.getElementById("cc-promotion").hidden'))
        alice.click('#cc-promotion button[data-promotion="n"]')
        check('game 2: promoted to a knight', alice.wait(
            'document.querySelector(".cc-moves") && document.querySelector('
            '".cc-moves").textContent.includes("a8=N")'))

        # Game 3: alice plays e4 offering a draw, bob accepts.
        alice.goto(base + '/games/3')
        alice.wait('!document.getElementById("cc-play").hidden')
        alice.type('#cc-move', 'e4')
        alice.click('button[data-action="offer-draw"]')
        check('game 3: the move and the offer', alice.wait(
            'document.querySelector(".cc-offer")'))
        check('game 3: no accepting one\'s own offer', alice.wait(
            '!document.getElementById("cc-play").hidden && document.'
            'querySelector(".cc-offer-answer").hidden'))
        check('game 3: while waiting, no move with an offer and no claim',
              alice.eval('document.querySelector("button[data-action='
                         '\'offer-draw\']").hidden && document.querySelector('
                         '"button[data-action=\'claim-draw\']").hidden && '
                         '!document.querySelector("button[data-action='
                         '\'resign\']").hidden'))
        bob.goto(base + '/games/3')
        bob.wait('!document.getElementById("cc-play").hidden')
        check('game 3: the accept button for the one offered a draw',
              bob.eval('!document.querySelector(".cc-offer-answer").hidden'
                       ' && !!document.querySelector("button[data-action='
                       '\'decline-draw\']")'))
        check('game 3: the player to move may claim a draw',
              bob.eval('!document.querySelector("button[data-action='
                       '\'claim-draw\']").hidden'))
        bob.click('button[data-action="accept-draw"]')
        check('game 3: the draw accepted', bob.wait(
            'document.getElementById("cc-status").textContent'
            '.includes("1/2-1/2")'))

        # Game 6: by drag (the mouse, then a finger) and by the keyboard.
        alice.goto(base + '/games/6')
        alice.wait('!document.getElementById("cc-play").hidden')
        sq = 'rect.cc-sq[data-square="%s"]'
        alice.drag(sq % 'e2', sq % 'e6')
        check('game 6: a drop on no legal square moves nothing',
              alice.wait('document.querySelector("use.cc-piece[data-square='
                         '\'e2\']") && !document.querySelector('
                         '"use.cc-piece[transform]")') and ply(alice) == 0)
        alice.drag(sq % 'e2', sq % 'e4')
        check('game 6: alice e2-e4 by dragging with the mouse',
              at_ply(alice, 1), message(alice))
        bob.goto(base + '/games/6')
        bob.wait('!document.getElementById("cc-play").hidden')
        bob.drag(sq % 'e7', sq % 'e5', touch=True)
        check('game 6: bob e7-e5 by dragging with a finger',
              at_ply(bob, 2), message(bob))
        alice.goto(base + '/games/6')
        alice.wait('!document.getElementById("cc-play").hidden')
        alice.key(sq % 'g1', 'Enter')
        alice.wait('document.querySelector(".cc-dot")')
        alice.key(sq % 'f3', 'Enter')
        check('game 6: alice Ng1-f3 by the keyboard',
              at_ply(alice, 3), message(alice))
        req = alice.eval('fetch("/api/v1/games/6").then((r) => r.json())'
                         '.then((j) => j.moves.join(" "))')
        check('game 6: the moves e4 e5 Nf3', req == 'e4 e5 Nf3', req)

        # Game 7: alice, waiting after 1. e4, signs conditional moves in
        # the page: a refused tree (the API's words), then a good one,
        # shown, cancelled, entered again; bob's e5 is answered by Nf3.
        move(alice, base, 7, 'e2', 'e4', 'game 7: alice e2-e4')
        alice.wait('!document.getElementById("cc-play").hidden')
        check('game 7: the conditional moves offered to the one waiting',
              alice.wait('!document.getElementById("cc-cond").hidden'))
        view = ('document.getElementById("cc-cond-view")')
        def cond(lines, button='#cc-cond-form button[type=submit]'):
            alice.eval(view + '.textContent = ""')
            if lines is not None:
                alice.eval('document.getElementById("cc-cond-lines").value'
                           ' = ""')
                alice.type('#cc-cond-lines', lines)
            alice.click(button)
            alice.wait(view + '.textContent !== ""')
            return alice.eval(view + '.textContent')
        got = cond('e5 Nf3; e5 d4')
        check('game 7: two answers to one move refused in the page',
              alice.eval(view + '.classList.contains("cc-bad")') and
              'e5' in got, got)
        write(state, 'cond-refusal', got)
        got = cond('e5 Nf3; c5 Nf3')
        check('game 7: conditional moves signed',
              'e5 Nf3; c5 Nf3' in got and '2 lines left' in got, got)
        got = cond(None, '#cc-cond-show')
        check('game 7: shown by a signed read', 'e5 Nf3; c5 Nf3' in got
              and 'waiting' in got, got)
        got = cond(None, '#cc-cond-cancel')
        check('game 7: cancelled', 'cancelled' in got, got)
        got = cond(None, '#cc-cond-show')
        check('game 7: nothing to show once cancelled', alice.eval(
            view + '.classList.contains("cc-bad")'), got)
        got = cond('e5 Nf3')
        check('game 7: entered again', 'e5 Nf3' in got, got)
        bob.goto(base + '/games/7')
        bob.wait('!document.getElementById("cc-play").hidden')
        check('game 7: not offered to the one to move',
              bob.eval('document.getElementById("cc-cond").hidden'))
        bob.click(sq % 'e7')
        bob.wait('document.querySelector(".cc-dot")')
        bob.click(sq % 'e5')
        check('game 7: bob\'s e5 answered by alice\'s conditional Nf3',
              at_ply(bob, 3), message(bob))
        moves = bob.eval('fetch("/api/v1/games/7").then((r) => r.json())'
                         '.then((j) => j.moves.join(" "))')
        check('game 7: the moves e4 e5 Nf3', moves == 'e4 e5 Nf3', moves)

        # The record verifies in the page.
        alice.goto(base + '/games/1')
        alice.wait('!document.getElementById("cc-verify").hidden')
        alice.click('#cc-verify')
        check('game 1: the record verifies', alice.wait(
            'document.getElementById("cc-verdict").classList'
            '.contains("cc-good")'),
            alice.eval('document.getElementById("cc-verdict").textContent'))
        verdict = alice.eval(
            'document.getElementById("cc-verdict").textContent')
        check('game 1: the verdict names the creation record',
              'creation record by the server' in verdict, verdict)
    finally:
        alice.close()
        bob.close()


def after(state, log):
    base = read(state, 'base')
    shots = read(state, 'shots')
    alice = Browser(os.path.join(state, 'profile-alice'), log)
    bob = Browser(os.path.join(state, 'profile-bob'), log)
    try:
        alice.goto(read(state, 'tampered') + '/games/1')
        alice.wait('!document.getElementById("cc-verify").hidden')
        alice.click('#cc-verify')
        check('tampered copy: the record fails to verify', alice.wait(
            'document.getElementById("cc-verdict").classList'
            '.contains("cc-bad")'),
            alice.eval('document.getElementById("cc-verdict").textContent'))
        verdict = alice.eval(
            'document.getElementById("cc-verdict").textContent')
        check('tampered copy: the verdict names the record changed',
              '(ply 2): ' in verdict, verdict)

        # Game 8: a move attested by the server (Xfcc) and the admin's
        # adjudication, both signed by the server's key, verify against
        # that key; the copy whose attested move was changed does not.
        alice.goto(base + '/games/8')
        alice.wait('!document.getElementById("cc-verify").hidden')
        alice.click('#cc-verify')
        got = alice.wait('document.getElementById("cc-verdict").className'
                         '.match(/cc-(good|bad)/)')
        verdict = alice.eval(
            'document.getElementById("cc-verdict").textContent')
        check('game 8: the attested and the admin\'s records verify',
              got and alice.eval('document.getElementById("cc-verdict")'
                                 '.classList.contains("cc-good")'), verdict)
        check('game 8: the verdict counts the server\'s records',
              '3 records' in verdict and '(2 attested or decided by the '
              'server, by its key)' in verdict, verdict)
        alice.goto(read(state, 'tampered') + '/games/8')
        alice.wait('!document.getElementById("cc-verify").hidden')
        alice.click('#cc-verify')
        alice.wait('document.getElementById("cc-verdict").className'
                   '.match(/cc-(good|bad)/)')
        verdict = alice.eval(
            'document.getElementById("cc-verdict").textContent')
        check('game 8 changed: the attested move fails to verify',
              '(ply 1): not signed by the server\'s key' in verdict,
              verdict)

        # The French player's page is in French without asking, and the
        # deadline of game 5 in his time zone (Tokyo, here), the UTC words kept as
        # its title.
        bob.page('Emulation.setTimezoneOverride', {'timezoneId': 'Asia/Tokyo'})
        bob.goto(base + '/games/4')
        check('bob sees French', bob.wait(
            'document.documentElement.lang === "fr" && '
            'document.getElementById("cc-play") && '
            '!document.getElementById("cc-play").hidden'))
        # His conditional moves (game 4, alice to move) in French letters.
        bob.type('#cc-cond-lines', 'd4 Cf6; e4 e5')
        bob.click('#cc-cond-form button[type=submit]')
        got = bob.wait('document.getElementById("cc-cond-view").dataset'
                       '.status === "active"')
        view = bob.eval('document.getElementById("cc-cond-view")'
                        '.textContent')
        check('bob\'s conditional moves shown in French letters',
              got and view.endswith(' : d4 Cf6; e4 e5'), view)
        bob.goto(base + '/games/5')
        dl = bob.eval('(() => { const t = document.querySelector('
                      '".cc-deadline"); return [t.textContent, t.title]; })()')
        check('the deadline in the reader\'s time zone and language',
              'UTC+9' in dl[0] and dl[1].endswith(' UTC') and
              dl[0] != dl[1] and (' janv' in dl[0] or ' févr' in dl[0]
                                   or ' mars' in dl[0]),
              repr(dl))

        # Screenshots of game 5 (ongoing, a few moves): desktop and phone,
        # light and dark; no horizontal scroll at 360 px.
        for dark in (False, True):
            alice.page('Emulation.setEmulatedMedia', {'features': [{
                'name': 'prefers-color-scheme',
                'value': 'dark' if dark else 'light'}]})
            for phone in (False, True):
                alice.page('Emulation.setDeviceMetricsOverride', {
                    'width': 360 if phone else 1200,
                    'height': 800 if phone else 900,
                    'deviceScaleFactor': 1, 'mobile': phone})
                alice.goto(base + '/games/5')
                alice.wait('!document.getElementById("cc-play").hidden')
                name = 'game-%s-%s' % ('phone' if phone else 'desktop',
                                       'dark' if dark else 'light')
                if phone:
                    sw = alice.eval('document.documentElement.scrollWidth')
                    check(name + ': no horizontal scroll (%s px)' % sw,
                          sw <= 360)
                path = os.path.join(shots, name + '.png')
                alice.shot(path)
                n = png_colours(path)
                check(name + ': screenshot not blank (%d colours)' % n,
                      n >= 16)
                print('screenshot ' + path, flush=True)
        # The event's page on the phone (360 px, dark): no horizontal
        # scroll, the crosstable's results links to the games.
        alice.goto(base + '/events/ladder')
        sw = alice.eval('document.documentElement.scrollWidth')
        check('event page: no horizontal scroll at 360 px (%s px)' % sw,
              sw <= 360)
        check('event page: the crosstable links its games', alice.eval(
            'document.querySelectorAll("#cc-crosstable a[href^=\'/games/\']")'
            '.length') == 4)
        # The club's page on the phone: no horizontal scroll, and the
        # tables' numbers and names each on one line (before, "alice"
        # broke into "alic" and "e", and "Game" into "Ga" and "me").
        alice.goto(base + '/')
        sw = alice.eval('document.documentElement.scrollWidth')
        check('club page: no horizontal scroll at 360 px (%s px)' % sw,
              sw <= 360)
        split = alice.eval(
            'Array.from(document.querySelectorAll("#cc-ongoing th, '
            '#cc-ongoing td a")).filter((e) => { const r = document.'
            'createRange(); r.selectNodeContents(e); return Array.from('
            'r.getClientRects()).filter((x) => x.width > 0).length > 1; })'
            '.map((e) => e.textContent).join(" ")')
        check('club page at 360 px: no name or heading broken', split == '',
              split)
        path = os.path.join(shots, 'club-phone-dark.png')
        alice.shot(path)
        print('screenshot ' + path, flush=True)
        alice.goto(base + '/events/ladder')
        path = os.path.join(shots, 'event-phone-dark.png')
        alice.shot(path)
        n = png_colours(path)
        check('event-phone-dark: screenshot not blank (%d colours)' % n,
              n >= 16)
        print('screenshot ' + path, flush=True)
    finally:
        alice.close()
        bob.close()


def https(state, log):
    """tests/tls.sh: enrol carol at an https:// address that is not
    localhost (so a secure context by HTTPS alone) and play e4 in game 1
    by clicks."""
    base = read(state, 'base')
    carol = Browser(os.path.join(state, 'profile-carol'), log, [
        '--host-resolver-rules=' + read(state, 'resolver'),
        '--ignore-certificate-errors-spki-list=' + read(state, 'spki')])
    try:
        enrol(carol, read(state, 'invite.carol'), 'carol over HTTPS')
        check('https: a secure context by HTTPS, not by localhost',
              carol.eval('window.isSecureContext && location.protocol === '
                         '"https:" && location.hostname === '
                         '"corrchess.test"'))
        move(carol, base, 1, 'e2', 'e4', 'https: carol e2-e4 by clicks')
    finally:
        carol.close()


PHASES = {'enrol-play': enrol_play, 'after': after, 'https': https}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in PHASES:
        sys.exit('usage: browser.py enrol-play|after|https STATE')
    state = sys.argv[2]
    if shutil.which(CHROMIUM) is None:
        sys.exit(CHROMIUM + ' not found: run .ci/install-deps')
    with open(os.path.join(state, 'chromium.log'), 'ab') as log:
        try:
            PHASES[sys.argv[1]](state, log)
        except RuntimeError as e:
            bad('browser', str(e))
    sys.exit(1 if failed else 0)


main()
