/**
 * L2-regularized logistic regression by Newton's method: enough to fit the few weights of
 * best_skill's rule (src/route/rule.ts) on the routing sets. The bias is not penalized;
 * `lambda` = 1 is scikit-learn's default (C = 1).
 */
export interface Fit {
  weights: number[];
  bias: number;
}

export function fitLogistic(rows: number[][], labels: number[], lambda = 1, iterations = 50): Fit {
  const k = rows[0]!.length + 1; // the bias is the last coordinate
  let beta = new Array<number>(k).fill(0);
  for (let it = 0; it < iterations; it++) {
    const gradient = beta.map((b, j) => (j < k - 1 ? lambda * b : 0));
    const hessian = Array.from({ length: k }, (_, i) =>
      Array.from({ length: k }, (_, j) => (i === j && i < k - 1 ? lambda : 0)),
    );
    rows.forEach((row, n) => {
      const x = [...row, 1];
      const p = sigmoid(x.reduce((s, v, j) => s + v * beta[j]!, 0));
      for (let i = 0; i < k; i++) {
        gradient[i]! += (p - labels[n]!) * x[i]!;
        for (let j = 0; j < k; j++) hessian[i]![j]! += p * (1 - p) * x[i]! * x[j]!;
      }
    });
    const step = solve(hessian, gradient);
    beta = beta.map((b, j) => b - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { weights: beta.slice(0, k - 1), bias: beta[k - 1]! };
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** Gaussian elimination with partial pivoting (the systems here are 4 × 4). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let j = c; j <= n; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--)
    x[r] = (m[r]![n]! - m[r]!.slice(r + 1, n).reduce((s, v, j) => s + v * x[r + 1 + j]!, 0)) / m[r]![r]!;
  return x;
}
