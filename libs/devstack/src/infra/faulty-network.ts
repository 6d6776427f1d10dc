import { connect, type Socket } from 'node:net';
import type { ISocketFactory } from 'kafkajs';

/**
 * kafkajs's sockets with faults on demand: `blackhole()` drops every answer from the broker (it
 * still writes what it is sent, the client never hears so: a send whose answer is lost), `cut()`
 * ends it and destroys every open connection, as a network partition that heals would.
 */
export function faultyNetwork(): { socketFactory: ISocketFactory; blackhole(): void; cut(): void } {
  const sockets = new Set<Socket>();
  let dropping = false;
  const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
    const socket = connect({ host, port }, onConnect);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    socket.emit = ((event: string | symbol, ...args: unknown[]) =>
      event === 'data' && dropping ? true : emit(event, ...args)) as Socket['emit'];
    return socket;
  };
  return {
    socketFactory,
    blackhole: () => void (dropping = true),
    cut: () => {
      dropping = false;
      // With an error: kafkajs notices a dropped connection by 'error' or 'end', not by 'close'.
      for (const socket of sockets) socket.destroy(new Error('connection cut (test)'));
    },
  };
}
