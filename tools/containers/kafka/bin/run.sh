#!/bin/bash
# apache/kafka's start-up, reduced to KRaft: KAFKA_FOO_BAR=x becomes foo.bar=x (a double
# underscore is an underscore, a triple one a dash), the log dir is formatted with CLUSTER_ID
# when it has no meta.properties, and the broker runs in the foreground as `kafka`.
set -euo pipefail
: "${CLUSTER_ID:?CLUSTER_ID is required (a base64url UUID)}"
config=/opt/kafka/config/server.properties
: > "$config"
while IFS='=' read -r name value; do
  case "$name" in
    KAFKA_HEAP_OPTS | KAFKA_OPTS | KAFKA_JVM_PERFORMANCE_OPTS | KAFKA_LOG4J_OPTS | KAFKA_VERSION) continue ;;
    KAFKA_*)
      key=${name#KAFKA_}
      key=$(echo "$key" | sed -e 's/___/-/g' -e 's/__/@/g' -e 's/_/./g' -e 's/@/_/g' | tr '[:upper:]' '[:lower:]')
      echo "$key=$value" >> "$config"
      ;;
  esac
done < <(env)
logdir=$(sed -n 's/^log\.dirs=//p' "$config" | cut -d, -f1)
logdir=${logdir:-/var/lib/kafka/data}
mkdir -p "$logdir"
chown -R kafka:kafka "$logdir" /opt/kafka/config
cat > /opt/kafka/config/log4j.properties <<'LOG'
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=WARN
log4j.logger.org.apache.kafka=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.server.KafkaServer=INFO
log4j.logger.kafka.server.BrokerServer=INFO
LOG
as_kafka() { setpriv --reuid=kafka --regid=kafka --init-groups "$@"; }
java_cp=(-cp '/opt/kafka/libs/*' -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties)
if [ ! -f "$logdir/meta.properties" ]; then
  as_kafka java -Xmx256m "${java_cp[@]}" kafka.tools.StorageTool format "--cluster-id=$CLUSTER_ID" -c "$config"
fi
exec setpriv --reuid=kafka --regid=kafka --init-groups java ${KAFKA_HEAP_OPTS:--Xmx512m -Xms256m} \
  -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true "${java_cp[@]}" kafka.Kafka "$config"
