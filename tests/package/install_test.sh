#!/usr/bin/env bash
# ctest `package` (docs/packaging.md, "The test"): builds the .deb with
# scripts/package from BINARY, installs it on this machine with dpkg -i and
# checks what it installed: the files, the conffile, the system user and the
# permissions, the unit (systemd-analyze verify), that the unit's
# ExecStartPre refuses the shipped, unconfigured file with a clear message;
# then, with a test-local configuration (a temporary data directory, a free
# loopback port), runs the unit's ExecStart command as the user credence
# and checks /healthz, /readyz and the web client; upgrades to a repacked
# higher version (the edited conffile must survive); purges and checks that
# everything but the user is gone.
#
#   tests/package/install_test.sh BINARY
#
# Root only (dpkg -i): exits 77 (skipped) otherwise, and when a credence
# package this test did not install is present (it never touches a real
# installation). The server runs outside systemd, so the unit's sandbox is
# not exercised here (no systemd as PID 1 on the test machine).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:?usage: install_test.sh BINARY}
marker=/var/tmp/credence-package-test.installed

if [[ $(id -u) -ne 0 ]]; then
  echo "skipped: installing a package needs root" >&2
  exit 77
fi
status=$(dpkg-query -W -f='${db:Status-Status}' credence 2>/dev/null || true)
if [[ -n $status && $status != not-installed ]]; then
  if [[ -e $marker ]]; then
    echo "a previous run of this test left its package installed: purging it" >&2
    dpkg --purge credence >/dev/null
  else
    echo "skipped: a credence package is installed ($status) that this test did not install" >&2
    exit 77
  fi
fi

work=$(mktemp -d /tmp/credence-package-test-XXXXXX)
chmod 0755 "$work"  # the user credence reaches its data directory inside
server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [[ -e $marker ]]; then dpkg --purge credence >/dev/null 2>&1 && rm -f "$marker"; fi
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}
ms() { echo $(($(date +%s%N) / 1000000)); }
as_credence() { setpriv --reuid=credence --regid=credence --init-groups --inh-caps=-all -- "$@"; }

# Build.
start=$(ms)
deb=$("$ROOT/scripts/package" --binary "$binary" --out "$work/out")
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes) in $(($(ms) - start)) ms"

# lintian: no error or warning (the remaining informational tags are listed,
# with their reasons, in docs/packaging.md).
if command -v lintian >/dev/null; then
  start=$(ms)
  if lintian --fail-on error,warning "$deb" >"$work/lintian.log" 2>&1; then
    echo "ok   lintian: no errors or warnings ($(($(ms) - start)) ms)"
  else
    echo "FAIL lintian:"
    cat "$work/lintian.log"
    failures=$((failures + 1))
  fi
else
  echo "note: lintian is not installed (scripts/test installs it); not run"
fi

# Install.
start=$(ms)
touch "$marker"
dpkg -i "$deb" >"$work/dpkg-install.log" 2>&1 || { cat "$work/dpkg-install.log"; exit 1; }
check "dpkg -i installs it" test "$(dpkg-query -W -f='${db:Status-Status}' credence)" = installed
check "the postinst says what to configure" grep -q "set public-url" "$work/dpkg-install.log"

# Files.
for path in /usr/bin/credence /usr/share/credence/web/index.html /lib/systemd/system/credence.service \
  /etc/credence/credence.conf /usr/share/doc/credence/copyright /usr/share/doc/credence/changelog.Debian.gz \
  /usr/share/doc/credence/README.Debian /usr/share/man/man1/credence.1.gz; do
  check "$path is installed" test -s "$path"
done
check "/usr/bin/credence runs" sh -c '/usr/bin/credence --version | grep -q "^credence "'
check "the web client's assets are installed" sh -c 'ls /usr/share/credence/web/assets/*.js >/dev/null'
check "the configuration is a conffile" sh -c \
  "dpkg-query -W -f='\${Conffiles}' credence | grep -q '^ /etc/credence/credence.conf '"
check "dpkg --verify finds nothing changed" dpkg --verify credence

# The user, the directories, the permissions.
check "the system user credence exists" sh -c 'getent passwd credence >/dev/null'
IFS=: read -r _ _ uid _ _ home shell < <(getent passwd credence)
check "credence is a system user (uid $uid)" test "$uid" -lt 1000
check "credence's home is /var/lib/credence" test "$home" = /var/lib/credence
check "credence has no login shell" test "$shell" = /usr/sbin/nologin
check "/var/lib/credence is credence's, 0750" test "$(stat -c '%U:%G %a' /var/lib/credence)" = "credence:credence 750"
check "/etc/credence is root:credence, 0750" test "$(stat -c '%U:%G %a' /etc/credence)" = "root:credence 750"
check "credence.conf is root:credence, 0640" test "$(stat -c '%U:%G %a' /etc/credence/credence.conf)" = "root:credence 640"

# The unit. systemd-analyze verify works without systemd as PID 1: it loads
# the unit file and checks its settings and that its commands exist.
unit=/lib/systemd/system/credence.service
if systemd-analyze verify --man=no "$unit" >"$work/verify.log" 2>&1; then
  echo "ok   systemd-analyze verify $unit"
else
  echo "FAIL systemd-analyze verify $unit:"
  cat "$work/verify.log"
  failures=$((failures + 1))
fi
check "the service is not enabled by the install" test ! -e /etc/systemd/system/multi-user.target.wants/credence.service
read -r -a exec_start_pre <<<"$(sed -n 's/^ExecStartPre=//p' "$unit")"
read -r -a exec_start <<<"$(sed -n 's/^ExecStart=//p' "$unit")"
check "ExecStart runs serve with the packaged configuration" \
  test "${exec_start[*]}" = "/usr/bin/credence serve --config /etc/credence/credence.conf"

# Unconfigured: the unit's ExecStartPre refuses to start, saying what to set.
set +e
as_credence "${exec_start_pre[@]}" >/dev/null 2>"$work/pre.err"
code=$?
set -e
check "ExecStartPre refuses the shipped configuration (exit 2, got $code)" test "$code" = 2
check "ExecStartPre says public-url must be set in the file" \
  grep -q "public-url is required and not set: set it in /etc/credence/credence.conf" "$work/pre.err"
cat "$work/pre.err"

# A test-local configuration: the shipped file with public-url, listen and
# data-dir edited, as an administrator would.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
install -d -o credence -g credence -m 0750 "$work/data"
sed -i -e "s|^#public-url = .*|public-url = http://127.0.0.1:$port|" \
  -e "s|^listen = .*|listen = 127.0.0.1:$port|" \
  -e "s|^data-dir = .*|data-dir = $work/data|" /etc/credence/credence.conf
check "ExecStartPre accepts the configured file" as_credence "${exec_start_pre[@]}"

# Run: the unit's ExecStart, as credence.
# setpriv itself, not a function, in the background: it execs the server, so $! is the server.
setpriv --reuid=credence --regid=credence --init-groups --inh-caps=-all -- "${exec_start[@]}" >"$work/server.log" 2>&1 &
server_pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 150); do
  curl -fsS -o /dev/null "$url/healthz" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
check "/healthz answers 200" curl -fsS -o /dev/null "$url/healthz"
check "/readyz answers 200" curl -fsS -o /dev/null "$url/readyz"
check "the web client is served at /" sh -c "curl -fsS '$url/' | grep -q '<div id=\"root\"'"
check "the server runs as credence" test "$(ps -o user= -p "$server_pid")" = credence
check "the database is in the configured data directory" test -s "$work/data/credence.db"
check "the chain-signing key is credence's, 0600" \
  test "$(stat -c '%U %a' "$work/data/chain-signing-key.pem")" = "credence 600"
kill -TERM "$server_pid"
set +e
wait "$server_pid"
code=$?
set -e
server_pid=
check "SIGTERM stops the server cleanly (exit $code)" test "$code" = 0
if [[ $failures -gt 0 ]]; then tail -n 20 "$work/server.log"; fi

# Upgrade: the same package repacked as a higher version. The edited
# conffile stays as it is (the packaged one did not change).
mkdir "$work/repack"
dpkg-deb -R "$deb" "$work/repack/root"
sed -i 's/^Version: .*/&+upgradetest1/' "$work/repack/root/DEBIAN/control"
dpkg-deb --root-owner-group -Zgzip -z1 --build "$work/repack/root" "$work/repack/credence-upgrade.deb" >/dev/null
dpkg -i "$work/repack/credence-upgrade.deb" >"$work/dpkg-upgrade.log" 2>&1 || { cat "$work/dpkg-upgrade.log"; exit 1; }
check "dpkg -i upgrades it" sh -c "dpkg-query -W -f='\${Version}' credence | grep -q '+upgradetest1\$'"
check "the upgrade keeps the edited configuration" grep -q "^listen = 127.0.0.1:$port\$" /etc/credence/credence.conf
check "the upgrade keeps the configuration's permissions" \
  test "$(stat -c '%U:%G %a' /etc/credence/credence.conf)" = "root:credence 640"

# Purge.
dpkg --purge credence >"$work/dpkg-purge.log" 2>&1 || { cat "$work/dpkg-purge.log"; exit 1; }
rm -f "$marker"
check "dpkg --purge removes it" sh -c '! dpkg-query -W credence >/dev/null 2>&1'
for path in /usr/bin/credence /usr/share/credence /lib/systemd/system/credence.service /etc/credence \
  /var/lib/credence /usr/share/doc/credence /usr/share/man/man1/credence.1.gz; do
  check "$path is gone" test ! -e "$path"
done
check "the user credence stays (Debian leaves system users)" sh -c 'getent passwd credence >/dev/null'
echo "install, checks, run, upgrade and purge took $(($(ms) - start)) ms"

if [[ $failures -gt 0 ]]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
