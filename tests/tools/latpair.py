"""latpair.py: how biolatency pairs a request's start with its completion,
from blkparse-format records (latref.py and latbtt.py both use it).

BCC keys a request by its address; a trace has only (device, sector).  So:
the start is D (with -Q: Q) at its sector; a request without a size (a
flush) is kept apart from one with a size at its sector (a flush's C FN
and C W do not end a write there); two requests in flight at one sector
at once (two readers of one block) are both kept, a third taking the
second's place; a record goes to the one its process started when only
one of them is its (a bio-based device completes in the submitter's
context), else to the older (by its start) for a D, a requeue or a C,
the newer for a back-merged bio (M, with -Q); a front merge (F, with -Q) moves the request that
began where the bio ends to the bio's sector, keeping its start.
"""


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

    def _pick(self, key, pid, newer):
        q, o = key + (False,), key + (True,)
        a, b = self.start.get(q), self.start.get(o)
        if not a or not b:
            return q if a else o if b else None
        if (a[2] == pid) != (b[2] == pid):
            return q if a[2] == pid else o
        return o if (b[0] < a[0]) != newer else q

    def event(self, dev, t, act, rwbs, sec, n, pid):
        """one record; for a C that ends a request, its [start time, dir, pid]"""
        s, key = self.start, (dev, sec, not n)
        if act == ('Q' if self.queued else 'D'):
            s[key + ((key + (False,)) in s,)] = [t, op(rwbs, n), pid]
        elif act == 'D' and self.queued:
            k = self._pick(key, pid, False)
            if k:
                s[k][1] = op(rwbs, n)
        elif act == 'M' and self.queued:
            k = self._pick(key, pid, True)
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
            k = self._pick(key, pid, False)
            if k:
                del s[k]
        elif act == 'C':
            k = self._pick(key, pid, False)
            return s.pop(k) if k else None
        return None


def btt_shared(text):
    """the completions (blkparse's time, to the microsecond) for which btt
    writes a line made from a Q that replaced one in flight at its start
    sector: two requests at one sector at once, whose first C btt pairs
    with the later D (latbtt.py's kind 'shared')"""
    import bisect
    qs, starts, out = {}, [], set()
    for line in open(text, errors='replace'):
        f = line.split()
        if len(f) < 10 or ',' not in f[0] or f[8] != '+' or not f[7].isdigit() or f[9] == '0':
            continue
        act, sec, n = f[5], int(f[7]), int(f[9])
        if act == 'Q':
            if sec not in qs:
                bisect.insort(starts, sec)
            qs[sec] = [n, sec in qs]
        elif act == 'C':
            i, hit = bisect.bisect_left(starts, sec), False
            while i < len(starts) and starts[i] < sec + n:
                s = starts[i]
                if s + qs[s][0] <= sec + n:
                    hit |= qs.pop(s)[1]
                    starts.pop(i)
                else:
                    i += 1
            if hit:
                a, _, b = f[3].partition('.')
                out.add(int(a) * 1000000 + round(int(b.ljust(9, '0')[:9]) / 1000))
    return out
