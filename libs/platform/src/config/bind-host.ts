import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The address a listener binds to. Loopback unless set: a process started by hand is reachable
 * only from its own machine. Container images set 0.0.0.0 explicitly (Dockerfile, compose,
 * Kubernetes), where probes and Prometheus reach the pod's address.
 */
export const bindHost = () => z.string().min(1).default('127.0.0.1').meta({ typeText: 'bind address' });

/** True when a bind address accepts connections from this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
