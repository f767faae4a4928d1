#!/usr/bin/python3
"""A real SMTP server for the API tests: aiosmtpd (Debian's python3-aiosmtpd)
on 127.0.0.1.

usage: smtp_sink.py PORT DIRECTORY

Every message received is saved in DIRECTORY twice: <n>.eml holds the bytes
exactly as they arrived after DATA, and <n>.json a summary the C++ tests can
read without a MIME parser: the envelope (mailFrom, rcptTos), the headers as
received (raw) and decoded (RFC 2047), and the decoded text body. The .json
file is written last, through a rename, so a reader never sees half a
message. Prints "ready" once it accepts connections.
"""
import email
import email.policy
import itertools
import json
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller


class SaveMessages:
    def __init__(self, directory):
        self.directory = directory
        self.counter = itertools.count(1)
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            n = next(self.counter)
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        base = os.path.join(self.directory, "%06d" % n)
        with open(base + ".eml", "wb") as f:
            f.write(raw)
        raw_headers = email.message_from_bytes(raw, policy=email.policy.compat32)
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        try:
            body = parsed.get_content()
        except (KeyError, LookupError):
            body = None
        summary = {
            "mailFrom": envelope.mail_from,
            "rcptTos": list(envelope.rcpt_tos),
            "rawHeaders": {k: str(v) for k, v in raw_headers.items()},
            "headers": {k: str(v) for k, v in parsed.items()},
            "body": body,
            "crlfOnly": b"\n" not in raw.replace(b"\r\n", b""),
            "file": base + ".eml",
        }
        with open(base + ".tmp", "w", encoding="utf-8") as f:
            json.dump(summary, f)
        os.rename(base + ".tmp", base + ".json")
        return "250 Message accepted for delivery"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: smtp_sink.py PORT DIRECTORY")
    port, directory = int(sys.argv[1]), sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    controller = Controller(SaveMessages(directory), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.5):
        pass
    controller.stop()


if __name__ == "__main__":
    main()
