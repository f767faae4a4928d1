#!/usr/bin/python3
"""A stand-in for the machine-translation providers the API tests cannot
reach, speaking their documented HTTP APIs on 127.0.0.1:

- LibreTranslate: POST /translate, JSON {q (text or list), source, target,
  format, api_key} -> {"translatedText": text or list}.
- DeepL API v2: POST /v2/translate, JSON {text: [...], source_lang,
  target_lang, glossary_id?} with "Authorization: DeepL-Auth-Key KEY" ->
  {"translations": [{"detected_source_language", "text"}]}; POST
  /v2/glossaries, JSON {name, source_lang, target_lang, entries,
  entries_format: "tsv"} -> 201 {"glossary_id", ...}.

usage: mt_standin.py DIRECTORY [--port N]

"Translation" is deterministic: the text upper-cased, then (DeepL, with a
glossary_id) each glossary source term, upper-cased, replaced by its target.
Keys: "bad" is refused (403), "quota" is over quota (DeepL 456,
LibreTranslate 429); a text containing SLOW is answered after 3 s. Every
request is recorded as <n>.json in DIRECTORY: {n, path, headers (names
lowercased), body, status}. Prints "ready <port>".
"""
import argparse
import http.server
import itertools
import json
import os
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.directory, exist_ok=True)
    counter = itertools.count(1)
    lock = threading.Lock()
    glossaries = {}

    def translate(text, glossary_id=None):
        out = text.upper()
        for source, target in glossaries.get(glossary_id, []):
            out = out.replace(source.upper(), target)
        return out

    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self, n, raw, status, reply):
            record = {"n": n, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                      "body": raw.decode("utf-8", "replace"), "status": status}
            base = os.path.join(args.directory, "%06d" % n)
            with open(base + ".tmp", "w", encoding="utf-8") as f:
                json.dump(record, f)
            os.rename(base + ".tmp", base + ".json")
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with lock:
                n = next(counter)
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                return self.answer(n, raw, 400, {"error": "body is not JSON"})
            if self.path == "/translate":
                key = body.get("api_key", "")
                if key == "bad":
                    return self.answer(n, raw, 403, {"error": "Invalid API key"})
                if key == "quota":
                    return self.answer(n, raw, 429, {"error": "Too many requests"})
                q = body.get("q")
                texts = q if isinstance(q, list) else [q]
                if any("SLOW" in t for t in texts):
                    time.sleep(3)
                out = [translate(t) for t in texts]
                return self.answer(n, raw, 200, {"translatedText": out if isinstance(q, list) else out[0]})
            auth = self.headers.get("Authorization", "")
            if not auth.startswith("DeepL-Auth-Key "):
                return self.answer(n, raw, 403, {"message": "Authorization failed"})
            key = auth[len("DeepL-Auth-Key "):]
            if key == "bad":
                return self.answer(n, raw, 403, {"message": "Authorization failed"})
            if key == "quota":
                return self.answer(n, raw, 456, {"message": "Quota exceeded"})
            if self.path == "/v2/translate":
                texts = body.get("text", [])
                if any("SLOW" in t for t in texts):
                    time.sleep(3)
                gid = body.get("glossary_id")
                if gid is not None and gid not in glossaries:
                    return self.answer(n, raw, 404, {"message": "Glossary not found"})
                return self.answer(n, raw, 200, {"translations": [
                    {"detected_source_language": body.get("source_lang", "EN"), "text": translate(t, gid)}
                    for t in texts]})
            if self.path == "/v2/glossaries":
                if body.get("entries_format") != "tsv":
                    return self.answer(n, raw, 400, {"message": "entries_format"})
                pairs = [line.split("\t") for line in body.get("entries", "").splitlines() if line]
                gid = "gl-%d" % n
                glossaries[gid] = [(p[0], p[1]) for p in pairs if len(p) == 2]
                return self.answer(n, raw, 201, {"glossary_id": gid, "name": body.get("name"), "ready": True,
                                                 "source_lang": body.get("source_lang"),
                                                 "target_lang": body.get("target_lang"),
                                                 "entry_count": len(glossaries[gid])})
            return self.answer(n, raw, 404, {"message": "Not found"})

        def log_message(self, format, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print("ready", server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
