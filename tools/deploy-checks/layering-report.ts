/**
 * `npm run layering`: the figures behind layering.spec.ts, printed: the gateway's rooms, the
 * arrows between them, those that run back up (integration specs included), and the import
 * cycles of the whole repository.
 */
import { importCycles } from './import-graph';
import { gatewayGraph, MAX_ARROWS_UP, runsUp, show } from './layering';

const { graph, arrows } = gatewayGraph();
const rooms = new Set(arrows.flatMap((a) => [a.from, a.to]));
const up = arrows.filter(runsUp);
const cycles = importCycles(graph.imports);
console.log(`repository: ${graph.files.length} TypeScript files, ${cycles.length} import cycle(s)`);
for (const cycle of cycles) console.log(`  cycle: ${cycle.join(' <-> ')}`);
console.log(`gateway: ${rooms.size} rooms, ${arrows.length} arrows between them`);
console.log(`arrows that run back up: ${up.length} (at most ${MAX_ARROWS_UP})`);
for (const line of show(up)) console.log(`  ${line}`);
