#!/usr/bin/env python3
"""Added latency of the plugin guard pipeline on POST /api/entries/{id}/publish
(docs/performance.md, "Plugin guards"). Starts `credence serve --dev` on SQLite
in a fresh data directory, then publishes one entry (20 paragraph blocks)
N times sequentially over one keep-alive connection per configuration:
no plugin; content-rules with four rules; script-guards with one script;
both. Prints p50, p99 and mean per configuration and the added p50.

Usage: bench/plugins_publish.py [BINARY] [N]
"""
import http.client, json, os, shutil, statistics, subprocess, sys, tempfile, time

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/release/src/app/credence"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
PORT = 18601

SCRIPT = """
function guard(ctx)
  if ctx.action ~= "Entry.Publish" then return true end
  local title = string.lower(ctx.properties.title or "")
  if string.find(title, "draft", 1, true) then
    return false, "draft_title", "Titles saying draft are not published.", {title = ctx.properties.title}
  end
  return true
end
"""


def call(conn, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = conn.getresponse()
    data = r.read()
    return r.status, (json.loads(data) if data else None)


def main():
    data_dir = tempfile.mkdtemp(prefix="plugins-bench-")
    server = subprocess.Popen([BINARY, "serve", "--dev", "--data-dir", data_dir, "--listen", f"127.0.0.1:{PORT}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                c = http.client.HTTPConnection("127.0.0.1", PORT)
                if call(c, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        conn = http.client.HTTPConnection("127.0.0.1", PORT)
        tenant = call(conn, "GET", "/auth/dev-tenants")[1][0]["id"]
        admin = call(conn, "POST", "/auth/dev-login", {"persona": "admin", "tenantId": tenant})[1]["token"]
        editor = call(conn, "POST", "/auth/dev-login", {"persona": "editor", "tenantId": tenant})[1]["token"]
        assert call(conn, "POST", "/api/hubs", {"key": "bench-plugins", "name": "Bench", "defaultOrgRole": "Editor", "defaultExpiryDays": 90},
                    admin)[0] == 201
        blocks = [{"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": "Summary"}]}]
        blocks += [{"type": "paragraph", "content": [{"type": "text", "text": f"Paragraph {i} of the policy, "
                                                                               "with ordinary words in it."}]}
                   for i in range(19)]
        status, entry = call(conn, "POST", "/api/entries",
                             {"hubKey": "bench-plugins", "key": "policy", "originalLanguage": "en",
                              "title": "Travel policy", "content": json.dumps({"type": "doc", "content": blocks})},
                             editor)
        assert status == 201, entry
        publish = f"/api/entries/{entry['id']}/publish"

        def run(label):
            for _ in range(200):  # warm-up
                call(conn, "POST", publish, {}, editor)
            samples = []
            for _ in range(N):
                t0 = time.perf_counter()
                status, body = call(conn, "POST", publish, {}, editor)
                samples.append((time.perf_counter() - t0) * 1000)
                assert status == 200, body
            samples.sort()
            return label, samples[len(samples) // 2], samples[int(len(samples) * 0.99)], statistics.mean(samples)

        results = [run("no plugin")]
        assert call(conn, "POST", "/api/tenant/plugins/content-rules/install", {}, admin)[0] == 201
        assert call(conn, "PUT", "/api/plugins/rules/tenant/global",
                    {"requiredHeadings": ["Summary"], "forbiddenTerms": ["internal only", "confidential"],
                     "maxTitleLength": 120, "maxTextLength": 50000}, admin)[0] == 200
        results.append(run("content-rules (4 rules)"))
        assert call(conn, "POST", "/api/tenant/plugins/content-rules/disable", {}, admin)[0] == 200
        assert call(conn, "POST", "/api/tenant/plugins/script-guards/install", {}, admin)[0] == 201
        assert call(conn, "POST", "/api/plugins/script-guards/scripts",
                    {"name": "no drafts", "action": "Entry.Publish", "source": SCRIPT}, admin)[0] == 201
        results.append(run("script-guards (1 Lua script)"))
        assert call(conn, "POST", "/api/tenant/plugins/content-rules/enable", {}, admin)[0] == 200
        results.append(run("both"))
        base = results[0][1]
        print(f"{'configuration':32} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'added p50':>10}")
        for label, p50, p99, mean in results:
            print(f"{label:32} {p50:8.3f} {p99:8.3f} {mean:8.3f} {p50 - base:10.3f}")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
