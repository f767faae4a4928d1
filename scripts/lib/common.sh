# Shared by scripts/dev and scripts/test: installs what the build needs on a
# Debian 12 machine (as root, through apt-get) and builds with CMake+Ninja.

# Debian packages the build, the tests and the benchmarks need.
readonly CREDENCE_PACKAGES=(
  g++ cmake ninja-build ccache mold pkg-config
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libsqlite3-dev libpq-dev libssl-dev libcurl4-openssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libhyperscan-dev libgit2-dev liblua5.4-dev
  libphonenumber8 libprotobuf-dev libabsl-dev
  postgresql-15 wrk curl python3 python3-aiosmtpd openssh-server
  haproxy patroni etcd-server etcd-client
  apertium-apy apertium-eng-spa
  chromium
  dpkg-dev lintian
  clang-16 libclang-rt-16-dev
)

credence_install_packages() {
  local missing=()
  for pkg in "${CREDENCE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  if [[ $(id -u) -ne 0 ]]; then
    echo "missing packages: ${missing[*]} (run as root, or install them)" >&2
    return 1
  fi
  echo "installing: ${missing[*]}" >&2
  # The postgresql package would otherwise create and start a cluster on
  # port 5432; tests start their own servers.
  mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/credence.conf
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# libphonenumber's headers for the scanner's phone-number detector
# (docs/scanning.md). Debian 12's libphonenumber-dev cannot be installed: it
# depends on libboost-thread-dev (Boost 1.74), which conflicts with the Boost
# 1.81 -dev packages Credence builds with. The library itself is the runtime
# package libphonenumber8 (in CREDENCE_PACKAGES; it needs abseil, ICU and
# protobuf, not Boost, and was built with the POSIX singleton), so only the
# headers are missing: they are taken from the -dev package without
# installing it (apt-get download, dpkg -x) into
# /opt/credence-deps/libphonenumber/include, beside a libphonenumber.so link
# to the system's libphonenumber.so.8. Idempotent; needs root to install.
readonly CREDENCE_PHONENUMBER_DIR=/opt/credence-deps/libphonenumber
credence_install_phonenumber_headers() {
  local dir=$CREDENCE_PHONENUMBER_DIR
  local lib=/usr/lib/x86_64-linux-gnu/libphonenumber.so.8
  # The headers must be those of the installed library's version.
  local version
  version=$(dpkg-query -W -f='${Version}' libphonenumber8 2>/dev/null) || version=
  if [[ -z $version || ! -e $lib ]]; then
    echo "the package libphonenumber8 is not installed (credence_install_packages)" >&2
    return 1
  fi
  if [[ -f $dir/include/phonenumbers/phonenumberutil.h && -e $dir/lib/libphonenumber.so &&
    $(cat "$dir/VERSION" 2>/dev/null) == "$version" ]]; then
    return 0
  fi
  if [[ $(id -u) -ne 0 ]]; then
    echo "missing libphonenumber $version headers in $dir (run as root)" >&2
    return 1
  fi
  echo "extracting libphonenumber $version headers into $dir (from libphonenumber-dev, not installed)" >&2
  local tmp
  tmp=$(mktemp -d)
  # apt-get download fetches as the _apt user where it can.
  chown _apt "$tmp" 2>/dev/null || true
  if ! (cd "$tmp" && apt-get download -qq "libphonenumber-dev=$version" >&2); then
    # The package lists may be missing or stale.
    apt-get update -qq >&2
    if ! (cd "$tmp" && apt-get download -qq "libphonenumber-dev=$version" >&2); then
      rm -rf "$tmp"
      return 1
    fi
  fi
  dpkg -x "$tmp"/libphonenumber-dev_*.deb "$tmp/root"
  rm -rf "$dir"
  mkdir -p "$dir/lib"
  cp -a "$tmp/root/usr/include" "$dir/include"
  ln -sf "$lib" "$dir/lib/libphonenumber.so"
  echo "$version" >"$dir/VERSION"
  rm -rf "$tmp"
}

# The OpenID provider the sign-in tests run (tests/oidc: oidc-provider from
# the npm registry, pinned by its package-lock.json). Needs Node.js 20.19 or
# later and npm; installs only when node_modules is missing or older than the
# lock file.
credence_install_test_oidc_provider() {
  local dir="$CREDENCE_ROOT/tests/oidc"
  if [[ -f "$dir/node_modules/.package-lock.json" && ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
    return 0
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "Node.js (20.19 or later) and npm are needed for the sign-in tests (tests/oidc)" >&2
    return 1
  fi
  echo "installing the test OpenID provider (npm ci in tests/oidc)" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# The OpenAPI linter the openapi_lint test runs (tests/openapi: @redocly/cli,
# pinned by its package-lock.json; docs/openapi.md). Same rules as above.
credence_install_test_openapi_linter() {
  local dir="$CREDENCE_ROOT/tests/openapi"
  if [[ -f "$dir/node_modules/.package-lock.json" && ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
    return 0
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "Node.js (20.19 or later) and npm are needed for the OpenAPI lint test (tests/openapi)" >&2
    return 1
  fi
  echo "installing the OpenAPI linter (npm ci in tests/openapi)" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# The TypeScript client and the retrievers (clients/: one npm workspace with
# openapi-fetch, openapi-typescript, TypeScript, @langchain/core and
# @langchain/classic, llamaindex; pinned by its package-lock.json;
# docs/clients.md). Same rules as above.
credence_install_clients() {
  local dir="$CREDENCE_ROOT/clients"
  if [[ -f "$dir/node_modules/.package-lock.json" && ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
    return 0
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "Node.js (20.19 or later) and npm are needed for the client tests (clients/)" >&2
    return 1
  fi
  echo "installing the clients' packages (npm ci in clients/)" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# The MCP counterparts the mcp test drives the server with (tests/mcp: the
# official TypeScript SDK and the MCP Inspector, pinned by its
# package-lock.json; docs/agents.md). Same rules as above.
credence_install_test_mcp_clients() {
  local dir="$CREDENCE_ROOT/tests/mcp"
  if [[ -f "$dir/node_modules/.package-lock.json" && ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
    return 0
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "Node.js (20.19 or later) and npm are needed for the MCP tests (tests/mcp)" >&2
    return 1
  fi
  echo "installing the MCP SDK and Inspector (npm ci in tests/mcp)" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# The web client's packages (web/: React, TipTap, Vite, TypeScript,
# openapi-typescript, playwright-core; pinned by its package-lock.json).
# Same rules as above.
credence_install_web_packages() {
  local dir="$CREDENCE_ROOT/web"
  if [[ -f "$dir/node_modules/.package-lock.json" && ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
    return 0
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "Node.js (20.19 or later) and npm are needed to build the web client (web/)" >&2
    return 1
  fi
  echo "installing the web client's packages (npm ci in web/)" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# Builds the web client into web/dist when a source is newer than the last
# build (docs/web-client.md). With `check`: first regenerates the API types
# from the built binary's /openapi.json (npm run api-types), so that a server
# change that breaks the client fails `tsc --noEmit`, and always rebuilds.
credence_build_web_client() {
  local dir="$CREDENCE_ROOT/web"
  credence_install_web_packages || return 1
  if [[ ${1:-} == check ]]; then
    (cd "$dir" && CREDENCE_BINARY="$CREDENCE_ROOT/build/release/src/app/credence" npm run --silent api-types >&2)
  elif [[ -f "$dir/dist/index.html" ]] &&
    [[ -z $(find "$dir/src" "$dir/public" "$dir/index.html" "$dir/package-lock.json" "$dir/vite.config.ts" "$dir/tsconfig.json" \
      -newer "$dir/dist/index.html" -print -quit) ]]; then
    return 0
  fi
  echo "building the web client (tsc --noEmit, vite build in web/)" >&2
  (cd "$dir" && npm run --silent build >&2)
}

# credence_build BUILD_DIR [TARGET...]
# A new build directory is a unity build (README, "Building by hand"): a whole-tree
# build, such as CI's from a clean clone, takes half the time; a build
# directory configured without it stays as it is.
credence_build() {
  local dir=$1
  shift
  if [[ ! -f "$dir/build.ninja" ]]; then
    cmake -S "$CREDENCE_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON >&2
  fi
  cmake --build "$dir" -- "$@" >&2
}
