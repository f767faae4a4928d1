#!/usr/bin/python3
"""A real HTTP receiver for the API tests, on 127.0.0.1.

usage: http_sink.py DIRECTORY [--port N] [--fail-first N]

Records every POST as <n>.json in DIRECTORY: {n, path, headers (names
lowercased), body (text), status}, written through a rename so a reader never
sees half a record. Answers 500 to the first N requests (--fail-first), 200
after that. Prints "ready <port>" once it accepts connections (port 0, the
default, lets the system choose).
"""
import argparse
import http.server
import itertools
import json
import os
import threading


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fail-first", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.directory, exist_ok=True)
    counter = itertools.count(1)
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            with lock:
                n = next(counter)
            status = 500 if n <= args.fail_first else 200
            record = {
                "n": n,
                "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
                "status": status,
            }
            base = os.path.join(args.directory, "%06d" % n)
            with open(base + ".tmp", "w", encoding="utf-8") as f:
                json.dump(record, f)
            os.rename(base + ".tmp", base + ".json")
            reply = b'{"ok": false}' if status != 200 else b'{"ok": true}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print("ready", server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
