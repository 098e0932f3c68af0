// How the strings a test holds are stored, read from a heap snapshot of the test's own process. Equal
// strings compare equal in JavaScript whether they are one object or a thousand copies, and a substring
// view looks like any other string: only the heap can tell, so the tests of what a large evaluation keeps
// (one copy of a repeated reason, no view into a parsed file) ask it.
import { getHeapSnapshot } from 'node:v8';

export interface HeapStrings {
  /** Strings in the heap whose text is exactly `text` (flat or concatenated; views are counted by `views`). */
  copies(text: string): number;
  /** Sliced strings (views into a longer string) into a string that contains `text`. */
  views(text: string): number;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const STRING_TYPES = new Set(['string', 'concatenated string']);

/**
 * One snapshot, taken now (a full collection first, as the snapshot always does: only what is
 * reachable is counted). Callers keep the objects they ask about alive until this returns.
 */
export async function heapStrings(): Promise<HeapStrings> {
  const chunks: string[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(String(chunk));
  const snap = JSON.parse(chunks.join('')) as Snapshot;
  const { node_fields: fields, node_types, edge_fields } = snap.snapshot.meta;
  const types = node_types[0];
  const [typeAt, nameAt, edgesAt, width] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('edge_count'), fields.length];
  const [edgeNameAt, edgeToAt, edgeWidth] = [edge_fields.indexOf('name_or_index'), edge_fields.indexOf('to_node'), edge_fields.length];
  const all = new Map<string, number>();
  // A sliced string's own name in a snapshot is "(sliced string)": what it shows is its parent, an edge.
  const parents: string[] = [];
  let edge = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const edges = snap.nodes[i + edgesAt]!;
    if (type === 'sliced string') {
      for (let e = edge; e < edge + edges * edgeWidth; e += edgeWidth) {
        if (snap.strings[snap.edges[e + edgeNameAt]!] === 'parent') parents.push(snap.strings[snap.nodes[snap.edges[e + edgeToAt]! + nameAt]!]!);
      }
    } else if (STRING_TYPES.has(type)) {
      const text = snap.strings[snap.nodes[i + nameAt]!]!;
      all.set(text, (all.get(text) ?? 0) + 1);
    }
    edge += edges * edgeWidth;
  }
  return {
    copies: (text) => all.get(text) ?? 0,
    views: (text) => parents.filter((s) => s.includes(text)).length,
  };
}
