#!/usr/bin/env bash
# The typed merchant client as the tarball a merchant installs (npm install ./pay-merchant-client-<version>.tgz):
# JavaScript and declarations compiled from libs/merchant-client, its package.json and README.
# Prints the tarball's path. Nothing is written into the checkout's sources.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source tools/lib/node.sh
ensure_node >/dev/null
out="dist/packages/merchant-client"
rm -rf "$out"
node node_modules/typescript/bin/tsc -p libs/merchant-client/tsconfig.lib.json
cp libs/merchant-client/package.json libs/merchant-client/README.md "$out/"
cd dist/packages
tarball="$(npm pack ./merchant-client --silent)"
echo "$root/dist/packages/$tarball"
