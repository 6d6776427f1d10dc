# Sourced first by the test script (and so CI), the local runner and tools/pinned-node.sh (the
# npm scripts of the admin CLI, benchmarks, chaos and test suites): makes `node` on PATH the
# version in .nvmrc, the project's one pin. When the machine's node is another version, that
# exact version is installed once from the npm registry (node-<os>-<arch>, the official binary
# that the `node` package itself installs) into .local/node/<version> and put first on PATH.
# npm, npx, jest and every child process they start (process.execPath, or `node` from PATH)
# then run on it too; npm itself is the machine's, a JavaScript program that runs on the first
# node on PATH. Also usable in a shell: `source tools/lib/node.sh && ensure_node`.
PROJECT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

ensure_node() {
  local want found dir os arch tmp
  want=$(tr -d '[:space:]v' < "$PROJECT_ROOT/.nvmrc")
  found=$(node --version 2>/dev/null || echo none)
  if [ "$found" = "v$want" ]; then return 0; fi
  dir="$PROJECT_ROOT/.local/node/$want"
  if [ ! -x "$dir/bin/node" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "Node.js $want is required (.nvmrc) and neither it nor npm is on PATH: install it with nvm (\`nvm install\` in the checkout) or fnm (\`fnm use\`)" >&2
      return 1
    fi
    case "$(uname -s)" in
      Linux) os=linux ;;
      Darwin) os=darwin ;;
      *) echo "Node.js $want is required (.nvmrc): install it with nvm or fnm (no registry binary for $(uname -s))" >&2; return 1 ;;
    esac
    case "$(uname -m)" in
      x86_64 | amd64) arch=x64 ;;
      aarch64 | arm64) arch=arm64 ;;
      *) echo "Node.js $want is required (.nvmrc): install it with nvm or fnm (no registry binary for $(uname -m))" >&2; return 1 ;;
    esac
    echo "Node.js $want (.nvmrc) is not the node on PATH ($found); installing it into .local/node/$want (once)" >&2
    mkdir -p "$PROJECT_ROOT/.local/node"
    tmp=$(mktemp -d "$PROJECT_ROOT/.local/node/.install.XXXXXX")
    # --ignore-scripts: the platform package is the binary itself and has no install script.
    if ! npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts --loglevel=error "node-$os-$arch@$want" >/dev/null; then
      rm -rf "$tmp"
      echo "could not install node-$os-$arch@$want from the npm registry" >&2
      return 1
    fi
    # Moved in whole, so an interrupted install never leaves a half-written .local/node/<version>.
    [ -x "$dir/bin/node" ] || mv "$tmp/node_modules/node-$os-$arch" "$dir"
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  found=$(node --version 2>/dev/null || echo none)
  if [ "$found" != "v$want" ]; then
    echo "$dir/bin/node does not run as Node.js $want (got $found)" >&2
    return 1
  fi
}
