/** Every key the Redis transport touches, in one place, all under the configured prefix. */
export class RedisKeys {
  constructor(private readonly prefix: string) {}

  stream(topic: string, partition: number): string {
    return `${this.prefix}${topic}:${partition}`;
  }

  members(topic: string, group: string): string {
    return `${this.prefix}_bus:members:${topic}:${group}`;
  }

  lease(topic: string, group: string, partition: number): string {
    return `${this.prefix}_bus:lease:${topic}:${group}:${partition}`;
  }
}
