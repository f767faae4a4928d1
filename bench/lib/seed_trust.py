#!/usr/bin/env python3
"""Seeds a dev server for the trust benchmarks (bench/app_records.sh,
bench/what_if.sh): a hub of ENTRIES published, fully reviewed entries, an app
on the internal channel with a key, and the evaluate body naming every entry.

    BASE=http://127.0.0.1:PORT DIR=/tmp/x ENTRIES=20 HUB=bench python3 bench/lib/seed_trust.py

Writes into DIR: body.json (the evaluate request), app_token (the key's
secret), admin_token (a dev session of the admin), app_id."""
import datetime
import json
import os
import urllib.request

base, out = os.environ["BASE"], os.environ["DIR"]
entries, hub = int(os.environ.get("ENTRIES", "20")), os.environ.get("HUB", "bench")


def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")


tenant = call("GET", "/auth/dev-tenants")[0]["id"]
admin = call("POST", "/auth/dev-login", {"persona": "admin", "tenantId": tenant})["token"]
call("POST", "/api/hubs", {"key": hub, "name": "Bench", "defaultExpiryDays": 365}, admin)
ids = []
for i in range(entries):
    doc = {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": f"Answer {i}"}]}]}
    e = call("POST", "/api/entries", {"hubKey": hub, "key": f"e{i}", "title": f"Entry {i}",
                                      "originalLanguage": "en", "content": json.dumps(doc)}, admin)
    call("POST", f"/api/entries/{e['id']}/publish", {}, admin)
    call("POST", f"/api/entries/{e['id']}/review", {"reviewType": "FullReview", "timeSpentSeconds": 30}, admin)
    ids.append("entry:" + e["id"])
app = call("POST", "/trust-admin/apps", {"name": "Bench bot", "channel": "internal", "risk": "high"}, admin)
expires = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
key = call("POST", f"/trust-admin/apps/{app['id']}/keys", {"name": "bench", "expiresAt": expires}, admin)
open(f"{out}/body.json", "w").write(json.dumps({"sources": ids, "context": {"channel": "internal"}}))
open(f"{out}/app_token", "w").write(key["clientSecret"])
open(f"{out}/admin_token", "w").write(admin)
open(f"{out}/app_id", "w").write(app["id"])
