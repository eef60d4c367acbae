/**
 * A small RFC 4180 CSV parser: quoted fields, doubled quotes, embedded separators and
 * line breaks, CRLF or LF. Enough for the built-in `csv.read`.
 */

/** Parses CSV text into rows of string fields. */
export function parseCsv(text: string, delimiter = ","): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const n = text.length;
  if (text.charCodeAt(0) === 0xfeff) i = 1; // BOM
  while (i < n) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === "") {
      quoted = true;
      i++;
    } else if (c === delimiter) {
      row.push(field);
      field = "";
      i++;
    } else if (c === "\r" || c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new Error("unterminated quoted field at end of CSV");
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Turns parsed rows into records keyed by the header row. */
export function toRecords(rows: string[][]): { header: string[]; records: Record<string, string>[] } {
  const [header = [], ...body] = rows;
  const records = body
    .filter((r) => !(r.length === 1 && r[0] === ""))
    .map((r) => {
      const rec: Record<string, string> = {};
      header.forEach((h, i) => {
        rec[h] = r[i] ?? "";
      });
      return rec;
    });
  return { header, records };
}
