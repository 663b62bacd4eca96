#!/usr/bin/env python3
"""pybatch.py < LIST: run Python scripts one after another in this one
interpreter, each as `python3 SCRIPT ARG...` would run it (its own
__main__, sys.argv).  LIST has one `SCRIPT ARG...` a line, words split on
blanks.  A start of python3 costs a tenth of a second on a small machine;
the tests run such helpers by the hundred.  A script that exits non-zero
or raises is named on stderr and the batch goes on; the exit status is 1
if any did."""
import runpy
import sys

bad = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    sys.argv = words
    try:
        runpy.run_path(words[0], run_name="__main__")
        rc = 0
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception as e:  # noqa: BLE001 - report and go on, as a shell would
        rc = "%s: %s" % (type(e).__name__, e)
    if rc:
        print("pybatch: failed (%s): %s" % (rc, line.strip()), file=sys.stderr)
        bad = 1
    sys.stdout.flush()
sys.exit(bad)
