/**
 * Where things are in a JSON text: the line and column (both 1-based) of the value a JSON pointer names,
 * and of the character a JSON.parse error points at. Problems name a place a person can jump to, never a
 * character offset.
 */

export interface Location {
  line: number;
  column: number;
}

/** line and column of a character offset */
export function locationOf(text: string, offset: number): Location {
  let line = 1;
  let start = 0;
  for (let i = 0; i < Math.min(offset, text.length); i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: Math.min(offset, text.length) - start + 1 };
}

/**
 * The offsets of every value (and, for object members, of their key) in a JSON text, keyed by JSON pointer.
 * A small scanner, tolerant enough for the files JSON.parse accepts; for anything else it returns what it found.
 */
function pointerOffsets(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const str = (): string => {
    const begin = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(begin, i)) as string;
  };
  const value = (pointer: string, keyOffset?: number) => {
    ws();
    out.set(pointer, keyOffset ?? i);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      while (i < text.length && text[i] !== '}') {
        ws();
        const at = i;
        const key = str();
        ws();
        i++; // colon
        value(`${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, at);
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (c === '[') {
      i++;
      ws();
      let n = 0;
      while (i < text.length && text[i] !== ']') {
        value(`${pointer}/${n++}`);
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && /[^\s,\]}]/.test(text[i])) i++;
    }
  };
  try {
    value('');
  } catch {
    // a broken text: keep what was found
  }
  return out;
}

/**
 * The line and column of what a JSON pointer names; for a pointer into something that is not there (a missing
 * property), the nearest enclosing value that is.
 * @example locate('{\n  "a": { "b": 1 }\n}', '/a/b') // { line: 2, column: 10 }
 */
export function locate(text: string, pointer: string): Location {
  const offsets = pointerOffsets(text);
  let p = pointer;
  for (;;) {
    const at = offsets.get(p);
    if (at !== undefined) return locationOf(text, at);
    if (!p) return { line: 1, column: 1 };
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

/**
 * Where a text stops being JSON: the first offset a strict reading cannot accept (JSON.parse's own message
 * names a position only in some Node versions).
 */
export function syntaxErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const lit = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const str = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    } else if (c === '"') str();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else num();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (at) {
    if (typeof at === 'number') return Math.min(at, text.length);
    throw at;
  }
}

/** the location of a JSON syntax error: where a strict reading stops, or what JSON.parse's message names */
export function parseErrorLocation(text: string, error: Error): Location | undefined {
  const at = syntaxErrorOffset(text);
  if (at !== undefined) return locationOf(text, at);
  const lc = /line (\d+) column (\d+)/.exec(error.message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(error.message);
  if (pos) return locationOf(text, Number(pos[1]));
  return undefined;
}
