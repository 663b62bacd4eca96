"""latpair.py: how biolatency pairs a request's start with its completion,
from blkparse-format records (latref.py and latbtt.py both use it).

BCC keys a request by its address; a trace has only (device, sector).  So:
the start is D (with -Q: Q) at its sector; a request without a size (a
flush) is kept apart from one with a size at its sector (a flush's C FN
and C W do not end a write there); two requests in flight at one sector
at once (two readers of one block) are both kept, a third taking the
second's place; a record goes to the one of its own direction (R W F D)
when only one of them is (a discard's C after a read that never
completes at its start: brd), then to the one its process started when only
one of them is its (a bio-based device completes in the submitter's
context), else to the older (by its start) for a D, a requeue or a C,
the newer for a back-merged bio (M, with -Q); a front merge (F, with -Q) moves the request that
began where the bio ends to the bio's sector, keeping its start.
"""
import bisect


def op(rwbs, n):
    """the request's direction: R W, F a flush without data, D discard"""
    if 'D' in rwbs:
        return 'D'
    if 'W' in rwbs:
        return 'W'
    if 'F' in rwbs and not n:
        return 'F'
    return 'R'


class Pairing:
    def __init__(self, queued):
        self.queued, self.start = queued, {}	# (dev, sector, flush, second) -> [time, dir, pid]
        self.seq, self.lost = {}, -1	# (dev, cpu) -> the next sequence number; the last record after a skip

    def _pick(self, key, pid, newer, d):
        q, o = key + (False,), key + (True,)
        a, b = self.start.get(q), self.start.get(o)
        if not a or not b:
            return q if a else o if b else None
        if (a[1] == d) != (b[1] == d):
            return q if a[1] == d else o
        if (a[2] == pid) != (b[2] == pid):
            return q if a[2] == pid else o
        return o if (b[0] < a[0]) != newer else q

    def event(self, dev, t, act, rwbs, sec, n, pid, cpu=None, seq=None):
        """one record (CPU and sequence number: records lost where a
        CPU's skip); for a C that ends a request, its [start time, dir, pid]"""
        s, key = self.start, (dev, sec, not n)
        if cpu is not None and act != 'm':
            if self.seq.get((dev, cpu), seq) != seq:
                self.lost = t
            self.seq[(dev, cpu)] = seq + 1
        if act == ('Q' if self.queued else 'D'):
            first = s.get(key + (False,))
            # one this process started before records were lost has lost its end
            s[key + (first is not None and (first[0] >= self.lost or first[2] != pid),)] = [t, op(rwbs, n), pid]
        elif act == 'D' and self.queued:
            k = self._pick(key, pid, False, op(rwbs, n))
            if k:
                s[k][1] = op(rwbs, n)
        elif act == 'M' and self.queued:
            k = self._pick(key, pid, True, op(rwbs, n))
            if k:
                del s[k]
        elif act == 'F' and self.queued:
            old = s.pop((dev, sec + n, False, False), None)
            if old:
                if key + (False,) in s:
                    s[key + (False,)][0] = old[0]
                else:
                    s[key + (False,)] = old
        elif act == 'R' and not self.queued:
            k = self._pick(key, pid, False, op(rwbs, n))
            if k:
                del s[k]
        elif act == 'C':
            k = self._pick(key, pid, False, op(rwbs, n))
            return s.pop(k) if k else None
        return None



class BttQs:
    """btt 1.2.0's Qs (latbtt.py): kept by start sector, a Q at a taken
    start taking the older one's place (and marked: it replaced one in
    flight, so btt's line for the next C there is that C minus this Q's
    D, whichever request the C ends); each [size, Q time, D time,
    replaced].  Also marked: a Q at a start where a request btt no longer
    holds is still in flight (live: Qs less Cs at each start, whatever
    btt kept).  Seed 52817 w3, brd: a write, a read, a write at one
    sector; the first write's C ended the read's Q in btt, the second
    write's Q came before the read's C, and btt paired them (158 us where
    the read took 709)"""

    def __init__(self):
        self.qs, self.starts, self.live = {}, [], {}

    def ended(self, s, held):
        """a C at s holding btt's Qs at held: one request less in flight at
        each of those starts and its own"""
        for x in set(held) | {s}:
            if self.live.get(x, 0) > 0:
                self.live[x] -= 1

    def holds(self, s, n):
        """the starts of the Qs inside [s, s + n)"""
        i = bisect.bisect_left(self.starts, s)
        out = []
        while i < len(self.starts) and self.starts[i] < s + n:
            if self.starts[i] + self.qs[self.starts[i]][0] <= s + n:
                out.append(self.starts[i])
            i += 1
        return out

    def queue(self, sec, n, t):
        rep = sec in self.qs or self.live.get(sec, 0) > 0
        if sec not in self.qs:
            bisect.insort(self.starts, sec)
        self.qs[sec] = [n, t, None, rep]
        self.live[sec] = self.live.get(sec, 0) + 1

    def issue(self, sec, n, t):
        for s in self.holds(sec, n):
            self.qs[s][2] = t

    def complete(self, sec, n):
        """the Qs a C holds whole, taken out"""
        out, held = [], self.holds(sec, n)
        for s in held:
            out.append(self.qs.pop(s))
            self.starts.remove(s)
        self.ended(sec, held)
        return out


def btt_shared(text):
    """the completions (blkparse's time, to the microsecond) for which btt
    writes a line made from a Q that replaced one in flight at its start
    sector: two requests at one sector at once, whose first C btt may pair
    with the later D (latbtt.py's kind 'shared')"""
    b, out = BttQs(), set()
    for line in open(text, errors='replace'):
        f = line.split()
        if len(f) < 10 or ',' not in f[0] or f[8] != '+' or not f[7].isdigit() or f[9] == '0':
            continue
        if f[5] == 'Q':
            b.queue(int(f[7]), int(f[9]), 0)
        elif f[5] == 'C' and any(q[3] for q in b.complete(int(f[7]), int(f[9]))):
            a, _, c = f[3].partition('.')
            out.add(int(a) * 1000000 + round(int(c.ljust(9, '0')[:9]) / 1000))
    return out
