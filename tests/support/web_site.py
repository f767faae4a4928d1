#!/usr/bin/python3
"""A real web site for the web connector's API tests, on 127.0.0.1.

usage: web_site.py DIRECTORY

Serves the files of DIRECTORY/site as text/html (GET and HEAD), with an ETag
(the SHA-256 of the file) and 304 on If-None-Match; a missing file is 404;
a file whose content starts with "FAIL" is answered 500. /robots.txt is
empty (everything allowed). Prints "ready <port>" once it accepts
connections.
"""
import hashlib
import http.server
import os
import sys


def main():
    root = os.path.join(sys.argv[1], "site")
    os.makedirs(root, exist_ok=True)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, body=b"", headers=None, send_body=True):
            self.send_response(status)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if send_body:
                self.wfile.write(body)

        def serve(self, send_body):
            path = self.path.split("?", 1)[0]
            if path == "/robots.txt":
                return self.answer(200, b"", {"Content-Type": "text/plain"}, send_body)
            file = os.path.normpath(os.path.join(root, path.lstrip("/")))
            if not file.startswith(root) or not os.path.isfile(file):
                return self.answer(404, b"not found", {"Content-Type": "text/plain"}, send_body)
            with open(file, "rb") as f:
                body = f.read()
            if body.startswith(b"FAIL"):
                return self.answer(500, b"broken", {"Content-Type": "text/plain"}, send_body)
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                return self.answer(304, b"", {"ETag": etag}, False)
            return self.answer(200, body, {"Content-Type": "text/html; charset=utf-8", "ETag": etag}, send_body)

        def do_GET(self):
            self.serve(True)

        def do_HEAD(self):
            self.serve(False)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("ready %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
