#!/usr/bin/python3
"""An independent Standard Webhooks verifier for the API tests (not the
server's code): Python's hmac, hashlib and base64 only.

usage: verify_webhook.py FILE
FILE holds {"secret": "whsec_...", "id": ..., "timestamp": ..., "body": ...,
"signature": <the webhook-signature header>}. Prints "ok" when one of the
space-separated v1 signatures is the HMAC-SHA256 of "<id>.<timestamp>.<body>"
keyed with the base64-decoded secret, "bad" otherwise.
"""
import base64
import hashlib
import hmac
import json
import sys


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        m = json.load(f)
    secret = m["secret"]
    assert secret.startswith("whsec_")
    key = base64.b64decode(secret[len("whsec_"):])
    content = "%s.%s.%s" % (m["id"], m["timestamp"], m["body"])
    expected = base64.b64encode(hmac.new(key, content.encode("utf-8"), hashlib.sha256).digest()).decode()
    for sig in m["signature"].split(" "):
        version, _, value = sig.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            print("ok")
            return
    print("bad")


if __name__ == "__main__":
    main()
