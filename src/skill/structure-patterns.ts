// What the structural checks look for, in English and Chinese (the compat corpus mixes both: "## When to Use",
// "## 何时使用", "## When NOT to Use", "## 何时不使用"), and the generic templates their fixes insert.
// Heading patterns run on normalised titles (lower-case, see normalizeTitle).

export const WHEN_NOT_TO_USE_HEADING: RegExp[] = [
  /\bwhen not to (?:use|invoke|apply|trigger)\b/,
  /\b(?:do not|don't|dont|never) use\b/,
  /^not (?:for|suitable)\b/,
  /\bwhen to avoid\b/,
  /\bboundar(?:y|ies)\b/,
  /\blimitations?\b/,
  /\bout of scope\b/,
  /\bnon-?goals?\b/,
  /何时不(?:使用|用)|什么时候不|不适用|不要使用|不使用|不用于|不适合|边界|限制|禁用场景/,
];

export const WHEN_TO_USE_HEADING: RegExp[] = [
  // Anchored so that "When to use WebFetch" (about another tool) does not count as the skill's own section.
  /^\W*when (?:to|should (?:you|i)) (?:use|invoke|apply|trigger|activate|reach for)(?: (?:this|the) skill| it| me)?\s*(?:[/|(（:：-].*)?$/u,
  /^\W*use (?:this skill |it )?(?:when|for)\b/u,
  /^(?:use cases?|triggers?|triggering|trigger(?:ing)? conditions?|activation|applicability)\b/,
  /何时使用|什么时候用|何时调用|使用场景|适用场景|触发条件|触发场景|触发词|使用时机|适用范围/,
];

export const EXAMPLE_HEADING: RegExp[] = [/\bexamples?\b/, /\bsample (?:input|output|usage|session)s?\b/, /示例|例子|样例|范例|举例/];

export const OUTPUT_HEADING: RegExp[] = [
  /\boutputs?\b/,
  /\breturns?\b|\breturn values?\b/,
  /\bdeliverables?\b/,
  /^(?:response |result |answer |report )?format\b/,
  /\b(?:response|result|answer|report) (?:format|structure|template)\b/,
  /输出|返回|产出|交付物|结果格式|回复格式|格式要求/,
];

export const WORKFLOW_HEADING: RegExp[] = [
  /\b(?:workflow|steps?|process|procedure|instructions|how to use|playbook)\b/,
  /\b(?:step|phase|stage) \d+\b/,
  /工作流程|流程|步骤|操作方法|使用方法|执行顺序|阶段/,
];

/** A description that says when to use the skill, in either language. */
export const WHEN_CUE = /\b(?:when|whenever|if the user|if you need|triggers?)\b|时使用|时用|时调用|时触发|当.{0,60}?时|适用于|使用场景|触发/i;

/** A boundary in prose ("Not for …", "不用于 …"), worth partial credit when there is no section for it. */
export const BOUNDARY_CUE = /\bnot for\b|\b(?:do not|don't) use\b|\bnot suitable\b|不用于|不适用|不要用|不适合/i;

export const ORDERED_ITEM = /^ {0,3}\d{1,9}[.)][ \t]+\S/;

export function matchesAny(patterns: RegExp[], s: string): boolean {
  return patterns.some((p) => p.test(s));
}

/** Rough word count that treats two CJK characters as a word, so both languages share one threshold. */
export function wordCount(s: string): number {
  const cjk = (s.match(/[\u3400-\u9fff\uf900-\ufaff]/g) ?? []).length;
  const latin = s.replace(/[\u3400-\u9fff\uf900-\ufaff]/g, ' ').split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return latin + Math.floor(cjk / 2);
}

export type Lang = 'en' | 'zh';

/** Generic fill-in templates: they give a generator the shape of a fix, never the content of one. */
export const TEMPLATES: Record<Lang, Record<'when' | 'whenNot' | 'example' | 'output' | 'workflow', { titles: string[]; body: string }>> = {
  en: {
    when: { titles: ['When to Use', 'When to use this skill'], body: '- [A request or situation this skill is for]\n- [Words a user says that signal it]' },
    whenNot: {
      titles: ['When NOT to Use', 'When not to use this skill'],
      body: '- [A near-miss request this skill should not handle, and what to use instead]',
    },
    example: {
      titles: ['Examples', 'Example', 'Usage example'],
      body: '<example>\nRequest: [a realistic request]\nResponse: [what following this skill produces for it]\n</example>',
    },
    output: {
      titles: ['Output Format', 'Output', 'Output contract'],
      body: '[What the result looks like: its parts or fields, their order, and its format (markdown, JSON, a file).]',
    },
    workflow: {
      titles: ['Workflow', 'Steps', 'Workflow steps'],
      body: '1. [First step]\n2. [Next step]\n3. [How to check the result before answering]',
    },
  },
  zh: {
    when: { titles: ['何时使用', '使用场景'], body: '- [适用本 skill 的请求或场景]\n- [用户说出的提示词]' },
    whenNot: { titles: ['何时不使用', '不适用场景'], body: '- [看似相关但不该由本 skill 处理的请求，以及应改用什么]' },
    example: { titles: ['示例', '使用示例'], body: '<example>\n请求：[一个真实的请求]\n回应：[按本 skill 执行后的产出]\n</example>' },
    output: { titles: ['输出格式', '输出'], body: '[结果的样子：包含哪些部分或字段、顺序、格式（markdown、JSON、文件）]' },
    workflow: { titles: ['工作流程', '执行步骤'], body: '1. [第一步]\n2. [下一步]\n3. [交付前如何检查结果]' },
  },
};

export const DESCRIPTION_TEMPLATE: Record<Lang, { what: string; when: string; full: string }> = {
  en: {
    what: '[Name the concrete tasks, inputs and outputs this skill covers.]',
    when: 'Use when [the requests or situations that call for it].',
    full: '[What this skill does, in one sentence]. Use when [the requests or situations that call for it].',
  },
  zh: {
    what: '[写明本 skill 处理的具体任务、输入与产出，以及它与相近 skill 的区别]',
    when: '当[需要它的请求或场景]时使用。',
    full: '[一句话说明本 skill 做什么，处理哪类输入、产出什么]。当[需要它的请求或场景]时使用。',
  },
};
