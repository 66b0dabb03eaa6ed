import { describe, expect, it } from 'vitest';
import { editedLines, editNeedles } from '../../src/core/history/edit-lines.ts';

const file = ['line 1', 'line 2', 'function a() {', '  return 1;', '}', 'line 6', ''].join('\n');

describe('editedLines', () => {
  it('finds the lines an old_string covers', () => {
    expect(editedLines(file, ['function a() {\n  return 1;\n}'])).toEqual([[3, 5]]);
    expect(editedLines(file, ['line 2'])).toEqual([[2, 2]]);
  });

  it('does not count the newline that ends a needle as another line', () => {
    expect(editedLines(file, ['line 2\n'])).toEqual([[2, 2]]);
  });

  it('merges touching ranges, sorts them, and skips needles not in the file', () => {
    expect(editedLines(file, ['line 6', 'line 1', 'line 2', 'not there'])).toEqual([
      [1, 2],
      [6, 6],
    ]);
  });
});

describe('editNeedles', () => {
  it('reads Edit and MultiEdit inputs and ignores anything else', () => {
    expect(editNeedles({ old_string: 'a', new_string: 'b' })).toEqual(['a']);
    expect(editNeedles({ edits: [{ old_string: 'x' }, { old_string: '  ' }, { nope: 1 }, null] })).toEqual(['x']);
    expect(editNeedles({ content: 'whole file' })).toEqual([]);
  });
});
