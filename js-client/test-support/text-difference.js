// How a committed generated file differs from what its generator writes now, for a test's failure message.

/** The lines that differ, as `-committed` / `+generated` around the first difference (`lines` of each). */
export function difference(committed, generated, lines = 8) {
  const a = committed.split('\n');
  const b = generated.split('\n');
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first++;
  const out = [`first difference at line ${first + 1}:`];
  for (const line of a.slice(first, first + lines)) out.push(`-${line}`);
  for (const line of b.slice(first, first + lines)) out.push(`+${line}`);
  return out.join('\n');
}
