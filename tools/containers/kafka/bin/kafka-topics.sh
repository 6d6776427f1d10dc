#!/bin/sh
# As Kafka's bin/kafka-topics.sh
exec java -Xmx256m -cp '/opt/kafka/libs/*' -Dlog4j.configuration=file:/opt/kafka/config/tools-log4j.properties org.apache.kafka.tools.TopicCommand "$@"
