"""`cucheck ...` and `python -m cucheck ...`: replace this process by the installed cucheck
executable with the same arguments, so that its exit status, signals, standard streams and
environment are the program's own."""

import os
import sys

from cucheck._locate import NotInstalledError, executable


def main():
    try:
        path = executable()
    except NotInstalledError as err:
        sys.stderr.write("cucheck: %s\n" % err)
        return 127
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(path, ["cucheck"] + sys.argv[1:])
    except OSError as err:
        sys.stderr.write("cucheck: cannot run %s: %s\n" % (path, err.strerror or err))
        return 126
    return 0   # not reached: execv does not return on success


if __name__ == "__main__":
    sys.exit(main())
