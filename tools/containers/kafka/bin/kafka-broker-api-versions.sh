#!/bin/sh
# As Kafka's bin/kafka-broker-api-versions.sh
exec java -Xmx128m -cp '/opt/kafka/libs/*' -Dlog4j.configuration=file:/opt/kafka/config/tools-log4j.properties kafka.admin.BrokerApiVersionsCommand "$@"
