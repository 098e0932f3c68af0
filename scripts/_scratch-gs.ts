import { boundaries, operatingCharacteristics, stagewisePValue } from '../src/stats/group-sequential.js';
import { planFigures, plan } from '../src/evaluation/plan.js';
const out: unknown[] = [];
for (const [a, b, ga, gb, th] of [[0.05, 0.2, 2, 0, 0.8], [0.025, 0, -4, 0, 0], [0.05, 0.1, 0, 0, 1.3], [0.05, 0.2, 2, 0, 0]] as const) {
  const looks = [1, 2, 2, 3, 5, 6, 8, 10].map((k, i, all) => ({ t: k / 10, info: k * 2.3, theta1: th || null, final: i === all.length - 1 }));
  const bs = boundaries(looks, { alpha: a, beta: b, gammaAlpha: ga, gammaBeta: gb });
  out.push(bs, operatingCharacteristics(bs, 0), operatingCharacteristics(bs, th), [0, 1, 2.5, -1].map((z) => stagewisePValue(bs.slice(0, 5), z)), stagewisePValue(bs, 2.1));
}
out.push(planFigures({ chances: [0.3, 0.5, 0.7, 0.8, 0.4], settings: { significance: 0.05, minEffect: 0.1, maxAttempts: 10 }, firstAttempts: 1 }));
out.push(plan({ chances: [0.3, 0.5, 0.7, 0.8, 0.4, 0.6], settings: { significance: 0.05, minEffect: 0.2, maxAttempts: 6 }, firstAttempts: 2 }));
console.log(JSON.stringify(out));
