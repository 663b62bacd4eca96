#!/usr/bin/env python3
# svgbox.py FILE.svg: the SVG's text as headless Chromium lays it out.
# The SVG goes inline into a page whose script measures every <text>
# (getBoundingClientRect: after transforms) and writes the boxes into
# the page, which --dump-dom prints.  Checks, each a line on stdout and
# exit 1 when any fails: every text inside the picture's width and
# height; no two texts overlapping (more than half a pixel both ways).
import html, re, subprocess, sys, tempfile, os

svg = open(sys.argv[1]).read()
page = ("<html><body style='margin:0'>" + svg + "<pre id='boxes'></pre><script>"
        "var s = document.querySelector('svg'), r = s.getBoundingClientRect(), out = [r.width + ' ' + r.height];"
        "document.querySelectorAll('svg text').forEach(function (t) { var b = t.getBoundingClientRect();"
        " out.push([b.left - r.left, b.top - r.top, b.right - r.left, b.bottom - r.top].map(function (v) { return v.toFixed(1); }).join(' ') + ' ' + t.textContent); });"
        "document.getElementById('boxes').textContent = out.join('\\n');</script></body></html>")
fd, path = tempfile.mkstemp(suffix=".html")
os.write(fd, page.encode()); os.close(fd)
dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", "file://" + path],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=90).stdout.decode()
os.unlink(path)
m = re.search(r"<pre id=\"boxes\">(.*?)</pre>", dom, re.S)
if not m:
    print("svgbox: Chromium gave no boxes"); sys.exit(2)
lines = html.unescape(m.group(1)).split("\n")
W, H = map(float, lines[0].split())
boxes = []
for l in lines[1:]:
    f = l.split(" ", 4)
    boxes.append((float(f[0]), float(f[1]), float(f[2]), float(f[3]), f[4] if len(f) > 4 else ""))
bad = 0
for b in boxes:
    if b[0] < -0.5 or b[1] < -0.5 or b[2] > W + 0.5 or b[3] > H + 0.5:
        print("outside %gx%g: %r" % (W, H, b)); bad += 1
for i in range(len(boxes)):
    a = boxes[i]
    for j in range(i + 1, len(boxes)):
        b = boxes[j]
        if min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5:
            print("overlap: %r %r" % (a, b)); bad += 1
print("%d texts in %gx%g, %d problems" % (len(boxes), W, H, bad))
sys.exit(1 if bad else 0)
