import { AssignerProtocol, type PartitionAssigner } from 'kafkajs';

/**
 * Round robin over the members subscribed to each topic. kafkajs's own round robin hands the
 * leader's topics to every member, subscribed or not (kafkajs issues 1040, 1679): with one group
 * over several topics (the workers' dead-letter-archive reads every `<topic>.dlq`) the partitions
 * landing on a member of another topic were never consumed. Listed before kafkajs's assigner, which
 * stays as the fallback a group of older members agrees on during a rolling deploy.
 */
export const subscribedRoundRobin: PartitionAssigner = ({ cluster }) => ({
  name: 'SubscribedRoundRobinAssigner',
  version: 0,

  async assign({ members, topics }) {
    const subscribers = new Map<string, string[]>();
    for (const { memberId, memberMetadata } of [...members].sort((a, b) => a.memberId.localeCompare(b.memberId))) {
      const named = AssignerProtocol.MemberMetadata.decode(memberMetadata)?.topics ?? [];
      // A member that names no topics is taken as subscribed to all of the leader's.
      for (const topic of named.length > 0 ? named : topics)
        subscribers.set(topic, [...(subscribers.get(topic) ?? []), memberId]);
    }
    // The leader knows the partitions of its own topics only.
    await cluster.addMultipleTargetTopics([...subscribers.keys()]);
    const assignment = new Map<string, Record<string, number[]>>(members.map((m) => [m.memberId, {}]));
    for (const [topic, memberIds] of subscribers) {
      const partitions = cluster.findTopicPartitionMetadata(topic).map((p) => p.partitionId);
      [...partitions]
        .sort((a, b) => a - b)
        .forEach((partitionId, i) => {
          const mine = assignment.get(memberIds[i % memberIds.length]) ?? {};
          (mine[topic] ??= []).push(partitionId);
        });
    }
    return [...assignment].map(([memberId, byTopic]) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({
        version: 0,
        assignment: byTopic,
        userData: Buffer.alloc(0),
      }),
    }));
  },

  protocol({ topics }) {
    return {
      name: 'SubscribedRoundRobinAssigner',
      metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }),
    };
  },
});
