/**
 * Logical topic and group names (what application code and handlers see) to the names on the
 * cluster. Environments sharing one cluster get their own topics and, above all, their own
 * consumer groups: a staging member joining production's group would take its partitions.
 */
export interface KafkaNames {
  topic(logical: string): string;
  group(logical: string): string;
}

export function kafkaNames(prefixes: { topicPrefix?: string; groupPrefix?: string }): KafkaNames {
  const topicPrefix = prefixes.topicPrefix ?? '';
  const groupPrefix = prefixes.groupPrefix ?? '';
  return {
    topic: (logical) => `${topicPrefix}${logical}`,
    group: (logical) => `${groupPrefix}${logical}`,
  };
}
