// Types and helpers shared by the structural checks (structure.ts runs them).
import { splitLines } from './lines.js';
import type { EditAction } from './edits.js';
import type { SkillDocument } from './markdown.js';
import type { Lang } from './structure-patterns.js';

export const MAX_BODY_LINES = 500;
export const MAX_DESCRIPTION_CHARS = 1024;
export const MAX_NAME_CHARS = 64;
export const MIN_DESCRIPTION_WORDS = 8;

export type DimensionId =
  | 'fences_closed'
  | 'frontmatter_fields'
  | 'description_quality'
  | 'when_to_use'
  | 'when_not_to_use'
  | 'examples'
  | 'output_contract'
  | 'workflow_steps'
  | 'body_length';

export interface StructureDimension {
  id: DimensionId;
  /** 0..1; 1 means the dimension passes. */
  score: number;
  finding: string;
  /** Present whenever score < 1: one edit that makes this dimension pass. */
  fix?: EditAction;
}

export interface StructureReport {
  dimensions: StructureDimension[];
  /** Mean of the dimension scores. */
  total: number;
}

/** Chinese when most headings are; the fixes then add Chinese headings and templates. */
export function documentLanguage(doc: SkillDocument): Lang {
  const titled = doc.sections.filter((s) => s.title.length > 0);
  const cjk = titled.filter((s) => /[\u3400-\u9fff]/.test(s.title)).length;
  return titled.length > 0 && cjk * 2 > titled.length ? 'zh' : 'en';
}

/** Body lines outside fenced code, for checks that must not be fooled by code samples. */
export function proseLines(doc: SkillDocument): string[] {
  const inCode = new Set<number>();
  for (const b of doc.codeBlocks) for (let n = b.startLine; n <= b.endLine; n++) inCode.add(n);
  return bodyLines(doc)
    .filter((l) => !inCode.has(l.number))
    .map((l) => l.text);
}

export function bodyLines(doc: SkillDocument): ReturnType<typeof splitLines> {
  const firstNumber = doc.bodyStart === doc.bom.length ? 1 : splitLines(doc.text, doc.bom.length, doc.bodyStart).length + 1;
  return splitLines(doc.text, doc.bodyStart, doc.text.length, firstNumber);
}

export interface Measure {
  score: number;
  finding: string;
}

/**
 * One dimension: how it is measured, and the edits that could fix it, best first. structure.ts proposes the
 * first candidate that applies cleanly and makes `measure` reach 1, so a proposed fix is a checked fix.
 */
export interface Check {
  id: DimensionId;
  measure(doc: SkillDocument): Measure;
  fixes(doc: SkillDocument): EditAction[];
}
