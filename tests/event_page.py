# tests/event_page.py: an event's web page read back as text, for tests/events.sh.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The tables of an event's page as text, one row a line, cells by spaces;
# and a check of the crosstable's links against the event's JSON.
import html.parser, json, sys

class Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.table, self.rows = None, {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table':
            self.table = a.get('id')
            self.rows[self.table] = []
        elif self.table and tag == 'tr':
            self.rows[self.table].append([])
        elif self.table and tag in ('td', 'th'):
            self.rows[self.table][-1].append(['', []])
        elif self.table and tag == 'a':
            self.rows[self.table][-1][-1][1].append(a['href'])
    def handle_endtag(self, tag):
        if tag == 'table':
            self.table = None
    def handle_data(self, d):
        if self.table and self.rows[self.table] and \
                self.rows[self.table][-1]:
            self.rows[self.table][-1][-1][0] += d

t = Tables()
t.feed(open(sys.argv[1]).read())
ev = json.load(open(sys.argv[2]))
games = {g['id']: g for g in ev['games']}
names = [p['name'] for p in ev['players']]
linked = []
for i, row in enumerate(t.rows['cc-crosstable'][1:]):
    print('cross', ' '.join(c[0].strip() for c in row))
    for k, cell in enumerate(row[2:2 + len(names)]):
        for href in cell[1]:
            g = games[int(href.rsplit('/', 1)[1])]
            if {g['white'], g['black']} != {names[i], names[k]}:
                print('link', href, 'in the cell of', names[i], names[k])
            linked.append(g['id'])
want = sorted(2 * [g['id'] for g in ev['games']
                   if g['adjusted'] != 'annulled'])
print('links', 'every game twice' if sorted(linked) == want
      else 'wrong: %s' % sorted(linked))
for row in t.rows['cc-standings'][1:]:
    print('standing', ' '.join(c[0].strip() for c in row))
print('games', len(t.rows['cc-event-games']) - 1)
