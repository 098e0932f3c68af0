// The two frontmatter dimensions: the required fields exist, and the description is one an agent can route
// on (short enough to be loaded, specific, and saying when to use the skill).
import type { EditAction } from './edits.js';
import type { SkillDocument } from './markdown.js';
import { documentLanguage, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, MIN_DESCRIPTION_WORDS, type Check } from './structure-common.js';
import { DESCRIPTION_TEMPLATE, WHEN_CUE, wordCount } from './structure-patterns.js';

const NAME_FORM = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const frontmatterFields: Check = {
  id: 'frontmatter_fields',
  measure(doc) {
    const fm = doc.frontmatter;
    if (!fm) return { score: 0, finding: 'no YAML frontmatter: an agent cannot discover the skill without `name` and `description`' };
    if (fm.data === null) return { score: 0, finding: `frontmatter does not parse: ${fm.error}` };
    const { name, description } = fm.data;
    const f = fields(doc);
    const problems = [
      !f.hasName ? 'no `name`' : !f.nameOk ? `name "${String(name)}" is not ≤${MAX_NAME_CHARS} chars of a-z, 0-9 and single hyphens` : '',
      f.hasDescription ? '' : 'no `description`',
    ].filter((p) => p !== '');
    const score = (f.nameOk ? 0.5 : f.hasName ? 0.25 : 0) + (f.hasDescription ? 0.5 : 0);
    const finding = problems.length === 0 ? `name "${String(name)}" and a description (${typeof description}) are present` : problems.join('; ');
    return { score, finding };
  },
  fixes(doc) {
    const template = DESCRIPTION_TEMPLATE[documentLanguage(doc)].full;
    if (doc.frontmatter?.data === null) return [rewriteFrontmatter(doc)];
    const f = fields(doc);
    const set: Record<string, string> = {};
    if (!f.nameOk) set.name = suggestedName(doc, f.hasName ? String(doc.frontmatter?.data?.name) : undefined);
    if (!f.hasDescription) set.description = template;
    return [{ type: 'update_frontmatter', set, reason: 'complete the required frontmatter fields' }];
  },
};

export const descriptionQuality: Check = {
  id: 'description_quality',
  measure(doc) {
    const d = describe(doc);
    if (d === null) return { score: 0, finding: 'no readable description: the agent routes on it, so the skill will not be picked' };
    const findings = [
      d.short ? `${d.chars} chars` : `${d.chars} chars, over the ${MAX_DESCRIPTION_CHARS}-char limit (it may be cut or rejected)`,
      d.specific ? `${d.words} words` : `only ${d.words} words: too vague to route on`,
      d.when ? 'says when to use it' : 'does not say when to use it',
    ];
    return { score: (Number(d.short) + Number(d.specific) + Number(d.when)) / 3, finding: findings.join('; ') };
  },
  fixes(doc) {
    const lang = documentLanguage(doc);
    const t = DESCRIPTION_TEMPLATE[lang];
    if (doc.frontmatter?.data === null) return [rewriteFrontmatter(doc)];
    const d = describe(doc);
    const reason = 'a description that is short, specific and says when to use the skill';
    if (d === null) return [{ type: 'update_frontmatter', set: { description: t.full }, reason }];
    const adds: string[] = [];
    if (!d.specific) adds.push(t.what);
    if (!d.when) adds.push(t.when);
    let base = fitTo(d.text, MAX_DESCRIPTION_CHARS - budgetFor(adds));
    if (!WHEN_CUE.test(base) && !adds.includes(t.when)) {
      adds.push(t.when);
      base = fitTo(d.text, MAX_DESCRIPTION_CHARS - budgetFor(adds));
    }
    const joiner = lang === 'zh' && !/[A-Za-z0-9.]$/.test(base) ? '' : ' ';
    return [{ type: 'update_frontmatter', set: { description: [base, ...adds].join(joiner) }, reason }];
  },
};

function fields(doc: SkillDocument): { hasName: boolean; nameOk: boolean; hasDescription: boolean } {
  const data = doc.frontmatter?.data ?? {};
  const { name, description } = data;
  const hasName = typeof name === 'string' && name.trim() !== '';
  const nameOk = hasName && NAME_FORM.test(name) && name.length <= MAX_NAME_CHARS;
  return { hasName, nameOk, hasDescription: typeof description === 'string' && description.trim() !== '' };
}

function describe(doc: SkillDocument): { text: string; chars: number; words: number; short: boolean; specific: boolean; when: boolean } | null {
  const raw = doc.frontmatter?.data?.description;
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  const text = raw.trim();
  const chars = [...text].length;
  const words = wordCount(text);
  return { text, chars, words, short: chars <= MAX_DESCRIPTION_CHARS, specific: words >= MIN_DESCRIPTION_WORDS, when: WHEN_CUE.test(text) };
}

function budgetFor(adds: string[]): number {
  return adds.reduce((n, a) => n + [...a].length + 1, 0);
}

/** Cuts at the last sentence end that fits, else at the last space, so the kept text still reads. */
function fitTo(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join('');
  const sentence = Math.max(...['. ', '。', '! ', '? ', '；'].map((p) => head.lastIndexOf(p)));
  if (sentence > head.length / 2) return head.slice(0, sentence + 1).trim();
  const space = head.lastIndexOf(' ');
  return (space > head.length / 2 ? head.slice(0, space) : head).trim();
}

/** Frontmatter that does not parse can only be rewritten: the template replaces the YAML between the fences. */
function rewriteFrontmatter(doc: SkillDocument): EditAction {
  const fm = doc.frontmatter!;
  let occurrence = 0;
  for (let i = doc.text.indexOf(fm.yaml); i !== -1 && i <= fm.yamlStart; i = doc.text.indexOf(fm.yaml, i + 1)) occurrence++;
  const t = DESCRIPTION_TEMPLATE[documentLanguage(doc)].full;
  const replace = `name: ${suggestedName(doc, undefined)}\ndescription: ${JSON.stringify(t)}\n`;
  return { type: 'replace_text', find: fm.yaml, replace, occurrence, reason: 'the frontmatter is not valid YAML; rewrite it' };
}

/** A valid name from the given one, the first heading, or a placeholder. */
function suggestedName(doc: SkillDocument, current: string | undefined): string {
  const source = current ?? doc.sections[0]?.title ?? '';
  const slug = source
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME_CHARS)
    .replace(/-+$/, '');
  return slug === '' ? 'my-skill' : slug;
}
