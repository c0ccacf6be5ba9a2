# tests/abuse-load.py: slow and idle sockets from many addresses, and a probe.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The attack of tests/abuse.sh and bench/abuse.sh, in one process: SOCKETS
# connections to 127.0.0.1:PORT spread over ADDRESSES loopback source
# addresses (127.0.0.10 on), half of them slowloris (a request line, then
# one header line every INTERVAL seconds, never the end of the headers),
# half idle (nothing sent). A connection the server closes is opened again
# at once, so the attack holds its count. Meanwhile a probe from PROBE_ADDR
# sends PROBES requests (GET /healthz on a new connection each, one at a
# time, at most TIMEOUT seconds each) and times them.
#
# usage: abuse-load.py PORT SOCKETS ADDRESSES PROBES [INTERVAL] [TIMEOUT]
#        [PROBE_ADDR]
# Prints one line "probe: served S/N (P%) median M ms p90 Q ms max X ms;
# attack: ..." and exits 0 (the caller judges the figures).

import resource
import selectors
import socket
import sys
import threading
import time

port = int(sys.argv[1])
nsock = int(sys.argv[2])
naddr = int(sys.argv[3])
nprobe = int(sys.argv[4])
interval = float(sys.argv[5]) if len(sys.argv) > 5 else 5.0
timeout = float(sys.argv[6]) if len(sys.argv) > 6 else 5.0
probe_addr = sys.argv[7] if len(sys.argv) > 7 else "127.0.0.2"

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
want = min(hard, nsock + 256) if hard != resource.RLIM_INFINITY else nsock + 256
if soft < want:
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

sel = selectors.DefaultSelector()
stop = threading.Event()
stats = {"opened": 0, "closed": 0, "failed": 0}


def source(i):
    """The source address of attack socket i."""
    return "127.0.0.%d" % (10 + i % naddr)


def attack_open(i):
    """Open attack socket i (slow when i is even) without blocking."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.bind((source(i), 0))
        s.connect_ex(("127.0.0.1", port))
    except OSError:
        s.close()
        stats["failed"] += 1
        return
    stats["opened"] += 1
    sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE,
                 {"i": i, "sent": False, "next": 0.0})


def attack():
    """Hold the attack's sockets open until told to stop."""
    for i in range(nsock):
        attack_open(i)
    while not stop.is_set():
        now = time.monotonic()
        for key, ev in sel.select(timeout=0.2):
            s, d = key.fileobj, key.data
            if ev & selectors.EVENT_READ:
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    sel.unregister(s)
                    s.close()
                    stats["closed"] += 1
                    attack_open(d["i"])
                    continue
            if ev & selectors.EVENT_WRITE and not d["sent"]:
                d["sent"] = True
                sel.modify(s, selectors.EVENT_READ, d)
                if d["i"] % 2 == 0:
                    try:
                        s.send(b"GET /api/v1/games HTTP/1.1\r\n"
                               b"Host: 127.0.0.1\r\n")
                    except OSError:
                        pass
                    d["next"] = now + interval
        # The slow ones: a header line every interval.
        for key in list(sel.get_map().values()):
            d = key.data
            if d["i"] % 2 == 0 and d["sent"] and d["next"] <= now:
                d["next"] = now + interval
                try:
                    key.fileobj.send(b"X-Slow: x\r\n")
                except OSError:
                    pass


def probe_one():
    """One probe request: its time in seconds, or None if not served."""
    t0 = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                     source_address=(probe_addr, 0))
        s.settimeout(max(0.1, timeout - (time.monotonic() - t0)))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Connection: close\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        s.close()
    except OSError:
        return None
    if not data.startswith(b"HTTP/1.1 200"):
        return None
    return time.monotonic() - t0


t = threading.Thread(target=attack, daemon=True)
t.start()
# Let the attack take its places (and the slow ones send a line or two).
time.sleep(min(3.0, interval / 2 + 1))
held = len(sel.get_map())
times = []
for _ in range(nprobe):
    r = probe_one()
    if r is not None:
        times.append(r)
    time.sleep(0.05)
stop.set()
t.join(timeout=5)
served = len(times)
times.sort()


def ms(q):
    """The q-quantile of the served times, in ms."""
    if not times:
        return float("nan")
    return 1000 * times[min(len(times) - 1, int(q * len(times)))]


print("probe: served %d/%d (%.1f%%) median %.1f ms p90 %.1f ms max %.1f ms; "
      "attack: %d sockets over %d addresses (%d held at the start of the "
      "probes), %d opened, %d closed by the server, %d failed to open"
      % (served, nprobe, 100.0 * served / max(1, nprobe), ms(0.5), ms(0.9),
         1000 * times[-1] if times else float("nan"), nsock, naddr, held,
         stats["opened"], stats["closed"], stats["failed"]))
