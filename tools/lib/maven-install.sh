# Sourced by the launchers that run Java servers from Maven Central (tools/kafka, tools/s3proxy).
#
#   maven_install NAME POM LIB MARKER TIMEOUT
#
# Copies POM's dependencies into LIB with `mvn dependency:copy-dependencies` (Maven's local
# repository caches them), unless LIB/MARKER is there already; gives up after TIMEOUT seconds
# rather than hang a test run. All or nothing: a half-downloaded folder is never taken for an
# installed server.
maven_install() {
  local name=$1 pom=$2 lib=$3 marker=$4 timeout=$5
  if [ -f "$lib/$marker" ]; then return 0; fi
  for tool in java mvn; do
    command -v "$tool" >/dev/null || { echo "$name install: '$tool' is not on PATH (needs a JDK 17+ and Maven)" >&2; return 1; }
  done
  echo "installing $name from Maven Central into $lib" >&2
  local started=$SECONDS tmp="$lib.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$(dirname "$lib")"
  if ! timeout "$timeout" mvn -B -q -f "$pom" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$PWD/$tmp" >"$tmp.log" 2>&1; then
    echo "$name install: mvn failed or took longer than ${timeout}s; its output:" >&2
    tail -n 40 "$tmp.log" >&2
    rm -rf "$tmp" "$tmp.log"
    return 1
  fi
  # A new version replaces the whole folder (and whatever was recorded beside the old jars).
  rm -rf "$lib" "$tmp.log"
  mv "$tmp" "$lib"
  echo "$name installed in $((SECONDS - started)) s" >&2
}
