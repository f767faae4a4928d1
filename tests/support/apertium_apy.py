#!/usr/bin/python3
"""A real Apertium APY server for the API tests, reached on 127.0.0.1 (APY
0.11 has no bind-address option and listens on every interface; the port is
fresh and the server lives only as long as the test).

usage: apertium_apy.py DIRECTORY

Starts `apertium-apy -p PORT /usr/share/apertium/modes` (Debian's
apertium-apy with the installed pairs, e.g. apertium-eng-spa) on a free
port, waits until /listPairs answers, and prints "ready <port>". When
apertium-apy or the pair is not installed it prints "ready 0 <reason>" and
exits, so the test can skip with the reason. APY dies with this script (PR_SET_PDEATHSIG).
"""
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

MODES = "/usr/share/apertium/modes"


def main():
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    if not shutil.which("apertium-apy"):
        print("ready 0 apertium-apy is not installed", flush=True)
        return
    if not os.path.exists(os.path.join(MODES, "eng-spa.mode")):
        print("ready 0 the apertium-eng-spa pair is not installed", flush=True)
        return
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    libc = ctypes.CDLL("libc.so.6")
    log = open(os.path.join(directory, "apy.log"), "w")
    child = subprocess.Popen(["apertium-apy", "-p", str(port), MODES], stdout=log, stderr=log,
                             preexec_fn=lambda: libc.prctl(1, signal.SIGKILL))
    for _ in range(300):
        try:
            urllib.request.urlopen("http://127.0.0.1:%d/listPairs" % port, timeout=1).read()
            break
        except OSError:
            if child.poll() is not None:
                print("ready 0 apertium-apy exited; see", log.name, flush=True)
                return
            time.sleep(0.1)
    print("ready", port, flush=True)
    child.wait()


if __name__ == "__main__":
    main()
