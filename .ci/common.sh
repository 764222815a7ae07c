# Sourced by the .ci scripts: repo root, PATH and the pinned tool versions.
# shellcheck shell=bash
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132 # the npm binaryen version in www/package.json; Trunk.toml pins wasm_opt = "version_132"

# npm's wasm-opt must come before any other (Debian's binaryen is too old); cargo-installed tools next.
export PATH="$ROOT/www/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# Trunk never downloads: no update check, tools pinned and offline in Trunk.toml.
export TRUNK_SKIP_VERSION_CHECK=true
export DEBIAN_FRONTEND=noninteractive

say() { printf '\n==> %s\n' "$*"; }

# The wasm-bindgen version Cargo.lock resolves; the CLI must be exactly this one.
wasm_bindgen_version() {
  awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/^version = "|"$/, ""); print; exit }' "$ROOT/Cargo.lock"
}
