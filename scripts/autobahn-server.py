"""Autobahn|Testsuite's fuzzing server for Ferry's AutobahnConformanceTests, on loopback only.

`wstest -m fuzzingserver` listens on every interface and serves its reports on 0.0.0.0:8080; this runs the same
server (the suite's FuzzingServerFactory) on 127.0.0.1 alone, with no web server. The reports are written to the
spec's "outdir" when a client asks for /updateReports. Python 2.7, as the suite needs.

Usage: autobahn-server.py SPEC.json PIDFILE
"""
import json
import os
import signal
import sys

from twisted.internet import epollreactor

epollreactor.install()

from twisted.internet import reactor  # noqa: E402 (after the reactor is chosen)
from autobahn.twisted.websocket import listenWS  # noqa: E402
from autobahntestsuite.fuzzing import FuzzingServerFactory  # noqa: E402


def main():
    spec_path, pidfile = sys.argv[1], sys.argv[2]
    with open(spec_path) as f:
        spec = json.load(f)
    factory = FuzzingServerFactory(spec, False)
    listenWS(factory, None, 50, "127.0.0.1")
    with open(pidfile + ".tmp", "w") as f:
        f.write("%d\n" % os.getpid())
    os.rename(pidfile + ".tmp", pidfile)
    signal.signal(signal.SIGTERM, lambda *_: reactor.callFromThread(reactor.stop))
    sys.stdout.flush()
    reactor.run()


if __name__ == "__main__":
    main()
