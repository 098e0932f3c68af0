// One CSV record per line (RFC 4180 quoting: a field in double quotes may hold commas, and "" is a
// quote). Calibration files are two or three short columns, so a record never spans lines; a quote
// left open is reported instead of swallowing the lines after it.

/** The fields of one line, or why the line is not valid CSV. */
export function splitCsvLine(line: string): string[] | string {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    // Leading blanks before an opening quote are tolerated: `PASS, "FAIL"` is what people type.
    let j = i;
    while (line[j] === ' ' || line[j] === '\t') j++;
    if (line[j] === '"') {
      let value = '';
      let k = j + 1;
      for (;;) {
        if (k >= line.length) return `unterminated quoted field starting at column ${j + 1}`;
        const c = line[k]!;
        if (c === '"') {
          if (line[k + 1] === '"') {
            value += '"';
            k += 2;
            continue;
          }
          k++;
          break;
        }
        value += c;
        k++;
      }
      while (line[k] === ' ' || line[k] === '\t') k++;
      if (k < line.length && line[k] !== ',') return `unexpected text after the quoted field at column ${k + 1}`;
      cells.push(value);
      if (k >= line.length) return cells;
      i = k + 1;
    } else {
      const comma = line.indexOf(',', i);
      if (comma === -1) {
        cells.push(line.slice(i));
        return cells;
      }
      cells.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}
