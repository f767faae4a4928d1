#!/usr/bin/python3
"""A private source for the connector credential tests, on 127.0.0.1.

usage: private_site.py DIRECTORY HEADER_NAME HEADER_VALUE [GIT_ROOT]

Every request must carry the header HEADER_NAME with HEADER_VALUE, else it
is answered 401 (with WWW-Authenticate: Basic when the header is
Authorization, so that a git client answers the challenge). Serves:
  /git/<repo>/...  git's smart HTTP protocol for the repositories under
                   GIT_ROOT, through `git http-backend` (CGI);
  anything else    the files of DIRECTORY/site as text/html; a file whose
                   content is "REDIRECT <url>" is answered 302 to <url>.
Appends one JSON line per request to DIRECTORY/requests.jsonl: the path, the
Host header, and whether HEADER_NAME was present at all ("sent") and with
the right value ("valid"). Prints "ready <port>" once it accepts
connections.
"""
import http.server
import json
import os
import subprocess
import sys
import threading


def main():
    directory, header_name, header_value = sys.argv[1], sys.argv[2], sys.argv[3]
    git_root = sys.argv[4] if len(sys.argv) > 4 else None
    root = os.path.join(directory, "site")
    os.makedirs(root, exist_ok=True)
    log_lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, body=b"", headers=None):
            self.send_response(status)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def read_body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                body = b""
                while True:
                    size = int(self.rfile.readline().strip().split(b";")[0], 16)
                    if size == 0:
                        self.rfile.readline()
                        return body
                    body += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def handle_any(self, method):
            body = self.read_body() if method == "POST" else b""
            sent = self.headers.get(header_name)
            with log_lock, open(os.path.join(directory, "requests.jsonl"), "a") as log:
                log.write(json.dumps({"path": self.path, "host": self.headers.get("Host"),
                                      "sent": sent is not None, "valid": sent == header_value}) + "\n")
            if sent != header_value:
                challenge = {"WWW-Authenticate": 'Basic realm="private"'} if header_name.lower() == "authorization" else {}
                return self.answer(401, b"credential required", {"Content-Type": "text/plain", **challenge})
            path, _, query = self.path.partition("?")
            if path.startswith("/git/") and git_root:
                return self.git(method, path[4:], query, body)
            if path == "/robots.txt":
                return self.answer(200, b"", {"Content-Type": "text/plain"})
            file = os.path.normpath(os.path.join(root, path.lstrip("/")))
            if not file.startswith(root) or not os.path.isfile(file):
                return self.answer(404, b"not found", {"Content-Type": "text/plain"})
            with open(file, "rb") as f:
                content = f.read()
            if content.startswith(b"REDIRECT "):
                return self.answer(302, b"", {"Location": content[9:].decode().strip()})
            return self.answer(200, content, {"Content-Type": "text/html; charset=utf-8"})

        def git(self, method, path_info, query, body):
            env = dict(os.environ, GIT_PROJECT_ROOT=git_root, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path_info,
                       QUERY_STRING=query, REQUEST_METHOD=method, REMOTE_ADDR="127.0.0.1",
                       CONTENT_TYPE=self.headers.get("Content-Type", ""), CONTENT_LENGTH=str(len(body)),
                       GIT_PROTOCOL=self.headers.get("Git-Protocol", ""))
            out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True).stdout
            head, _, payload = out.partition(b"\r\n\r\n")
            status, headers = 200, {}
            for line in head.decode("latin-1").split("\r\n"):
                name, _, value = line.partition(":")
                if name.lower() == "status":
                    status = int(value.strip().split(" ")[0])
                elif name:
                    headers[name] = value.strip()
            self.answer(status, payload, headers)

        def do_GET(self):
            self.handle_any("GET")

        def do_POST(self):
            self.handle_any("POST")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("ready %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
